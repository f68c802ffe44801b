import { describe, expect, it } from "vitest";
import { decodeRecord, encodeRecord } from "../src/encoded-record.js";
import { storedRecordSample } from "./stored-record-sample.js";

describe("encodeRecord and decodeRecord", () => {
  it("when a record of objects, arrays, dates, bytes, bigints and undefined members is encoded, then it is one string and decodes to an equal record", () => {
    const record = storedRecordSample();
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
