/**
 * The one way every adapter reads a stored minor-unit amount back (the other half of the codec:
 * adapters write the bigint itself, which BSON stores as Int64). Collections opened with
 * `useBigInt64` hand back bigint; a small value another writer stored as Int32 arrives as a
 * number, and a driver without `useBigInt64` gives a Long (anything with `toBigInt()`). Anything
 * else, or a number that is not a safe integer, is corrupt data, never rounded.
 */
export function minorFromStored(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toBigInt?: unknown }).toBigInt === "function"
  ) {
    return (value as { toBigInt(): bigint }).toBigInt();
  }
  throw new Error(`stored amount is not an integer: ${String(value)}`);
}
