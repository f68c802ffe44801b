/**
 * A deep copy of a stored record: plain objects (own enumerable properties, `undefined` ones
 * kept), arrays, `Date`s, byte arrays and primitives, bigint included. What the in-process
 * stores copy in and out, so callers never share mutable state with a store.
 *
 * It replaces `structuredClone`, which serializes and deserializes its argument: about six times
 * slower on a session, and in CPU profiles of embedded creates
 * (docs/decisions.md#stores-in-memory-copy-records-by-their-shape). Anything else (a class
 * instance, a Map, a function) is refused rather than copied wrong: stored records are data.
 */
export function copyRecord<T>(value: T): T {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function" || typeof value === "symbol")
      throw new TypeError(`copyRecord: a ${typeof value} is not data`);
    return value;
  }
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof Uint8Array) return new Uint8Array(value) as T;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null)
    throw new TypeError(
      `copyRecord: a ${prototype?.constructor?.name ?? "non-plain object"} is not a plain record`,
    );
  // A spread copies the record's shape with it. Members added one by one under computed keys
  // would turn a record of some thirty members into a dictionary: larger to keep, slower to read.
  const copy = { ...value } as Record<string, unknown>;
  for (const key of Object.keys(copy)) copy[key] = copyRecord(copy[key]);
  return copy as T;
}
