import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import { copyRecord } from "../src/copy-record.js";
import { storedRecordSample } from "./stored-record-sample.js";

/** V8's own answer to "is this object kept by its shape, not as a dictionary?". */
function hasFastProperties(value: object): boolean {
  setFlagsFromString("--allow-natives-syntax");
  return new Function("value", "return %HasFastProperties(value)")(value) as boolean;
}

describe("copyRecord", () => {
  it("when given a record of objects, arrays, dates, bytes, bigints and undefined members, then it gives an equal copy that shares nothing mutable", () => {
    const record = storedRecordSample();
    const copy = copyRecord(record);
    expect(copy).toStrictEqual(record);
    expect("absent" in copy).toBe(true);
    copy.scope.merchantId = "mer_2";
    copy.items[0]!.quantity = 9;
    copy.expiresAt.setTime(0);
    copy.digest[0] = 7;
    expect(record.scope.merchantId).toBe("mer_1");
    expect(record.items[0]!.quantity).toBe(2);
    expect(record.expiresAt.toISOString()).toBe("2026-11-26T00:00:00.000Z");
    expect(record.digest[0]).toBe(0);
  });

  it("when given a record with null prototype, then its copy keeps every member", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(copyRecord({ bare }).bare).toEqual({ a: 1 });
  });

  it("when given something that is not data (a Map, a class instance, a function), then it refuses rather than copy it wrong", () => {
    class Money {
      constructor(readonly minor: bigint) {}
    }
    expect(() => copyRecord({ rates: new Map([["EUR", 1]]) })).toThrow(/Map is not a plain record/);
    expect(() => copyRecord([new Money(1n)])).toThrow(/Money is not a plain record/);
    expect(() => copyRecord({ f: () => 1 })).toThrow(/function is not data/);
  });

  it("when given a record of some thirty members, then its copy, and a copy of the copy, are kept by shape rather than as dictionaries", () => {
    // A literal, as a session is built: no other code has added these members one by one before.
    const record = {
      a01: "ps_1",
      a02: 1,
      a03: new Date(3),
      a04: "x",
      a05: true,
      a06: null,
      a07: "y",
      a08: 8n,
      a09: [1],
      a10: { z: 1 },
      a11: "s",
      a12: 12,
      a13: new Date(13),
      a14: "t",
      a15: false,
      a16: "u",
      a17: 17,
      a18: "v",
      a19: new Date(19),
      a20: "w",
      a21: 21,
      a22: "p",
      a23: 23,
      a24: "q",
      a25: new Date(25),
      a26: "r",
      a27: 27,
      a28: "o",
      a29: 29,
      a30: "n",
    };
    expect(hasFastProperties(record)).toBe(true);
    const copy = copyRecord(record);
    expect(copy).toStrictEqual(record);
    expect(hasFastProperties(copy)).toBe(true);
    expect(hasFastProperties(copyRecord(copy))).toBe(true);
  });
});
