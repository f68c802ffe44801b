import { describe, expect, it } from "vitest";
import { copyRecord } from "../src/copy-record.js";

describe("copyRecord", () => {
  it("when given a record of objects, arrays, dates, bytes, bigints and undefined members, then it gives an equal copy that shares nothing mutable", () => {
    const record = {
      id: "ps_1",
      amountMinor: 12_345n,
      livemode: false,
      nothing: null,
      absent: undefined,
      scope: { merchantId: "mer_1" },
      items: [{ name: "Widget", quantity: 2 }],
      expiresAt: new Date("2026-11-26T00:00:00.000Z"),
      digest: new Uint8Array([1, 2, 3]),
    };
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
    expect(record.digest[0]).toBe(1);
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
});
