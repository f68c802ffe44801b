import { deserialize, serialize } from "node:v8";

/**
 * A record kept as one string: V8's serialization of it, each byte one latin1 character. An
 * in-memory store that keeps many records this way gives the garbage collector one object to
 * trace per record instead of dozens (its nested objects, arrays, dates, bigints), which on a
 * full heap is most of a major collection's work
 * (docs/decisions.md#sessions-in-memory-are-kept-encoded).
 *
 * It keeps what `structuredClone` keeps: plain objects and arrays, `Date`s, bigints, byte arrays,
 * Maps and Sets, `undefined` members. A class instance would come back as a plain object, and a
 * function is refused: stored records are data.
 */
export function encodeRecord(record: unknown): string {
  return serialize(record).toString("latin1");
}

/** A fresh copy of the record `encodeRecord` gave `encoded` for: nothing is shared with the store. */
export function decodeRecord<T>(encoded: string): T {
  return deserialize(Buffer.from(encoded, "latin1")) as T;
}
