import { describe, expect, it } from "vitest";
import { decodeRecord, encodeRecord } from "../src/encoded-record.js";

describe("encodeRecord and decodeRecord", () => {
  it("when a record of objects, arrays, dates, bytes, bigints and undefined members is encoded, then it is one string and decodes to an equal record", () => {
    const record = {
      id: "ps_1",
      amountMinor: 12_345n,
      livemode: false,
      nothing: null,
      absent: undefined,
      scope: { merchantId: "mer_1" },
      items: [{ name: "Livre – édition spéciale ✓", quantity: 2 }],
      expiresAt: new Date("2026-11-26T00:00:00.000Z"),
      digest: new Uint8Array([0, 1, 254, 255]),
    };
    const encoded = encodeRecord(record);
    expect(typeof encoded).toBe("string");
    const decoded = decodeRecord<typeof record>(encoded);
    expect(decoded).toStrictEqual(record);
    expect("absent" in decoded).toBe(true);
  });

  it("when a record is decoded twice, then each copy is fresh: changing one changes neither the other nor what is kept", () => {
    const encoded = encodeRecord({ scope: { merchantId: "mer_1" }, expiresAt: new Date(0) });
    const first = decodeRecord<{ scope: { merchantId: string }; expiresAt: Date }>(encoded);
    first.scope.merchantId = "mer_2";
    first.expiresAt.setTime(5);
    const second = decodeRecord<typeof first>(encoded);
    expect(second.scope.merchantId).toBe("mer_1");
    expect(second.expiresAt.getTime()).toBe(0);
  });

  it("when a record holds a function, then it is refused rather than kept wrong", () => {
    expect(() => encodeRecord({ f: () => 1 })).toThrow();
  });
});
