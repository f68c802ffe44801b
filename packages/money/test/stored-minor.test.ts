import { describe, expect, it } from "vitest";
import { minorFromStored } from "../src/index.js";

describe("minorFromStored", () => {
  it("when the driver hands back a bigint, then it is the amount", () => {
    expect(minorFromStored(9_007_199_254_740_993n)).toBe(9_007_199_254_740_993n);
  });

  it("when another writer stored a small Int32, then its number is read exactly", () => {
    expect(minorFromStored(125500)).toBe(125500n);
    expect(minorFromStored(-5)).toBe(-5n);
  });

  it("when the driver gives a Long, then its exact value is read", () => {
    const long = { toBigInt: () => 9_007_199_254_740_993n };
    expect(minorFromStored(long)).toBe(9_007_199_254_740_993n);
  });

  it.each([1.5, Number.MAX_SAFE_INTEGER + 2, "125", null, undefined, {}])(
    "when the stored value is %s, then it is refused as corrupt, never rounded",
    (value) => {
      expect(() => minorFromStored(value)).toThrow(/not an integer/);
    },
  );
});
