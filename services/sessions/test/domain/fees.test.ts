import { describe, expect, it } from "vitest";
import { feeAndNet, ZERO_FEE_PLAN } from "../../src/domain/fees.js";

describe("feeAndNet", () => {
  it("when the plan has a percentage and a fixed fee, then the percentage is rounded half-up once and the fixed fee added", () => {
    // 125.500 * 2.5 % = 3.1375 -> 3.138; + 0.250 = 3.388; net 122.112.
    expect(feeAndNet(125_500n, "TND", { percent: "2.5", fixedMinor: 250n })).toEqual({
      feeMinor: 3_388n,
      netMinor: 122_112n,
    });
  });

  it("when the percentage lands exactly on half a minor unit, then it rounds up", () => {
    // 1.000 * 0.05 % = 0.0005 -> 0.001.
    expect(feeAndNet(1_000n, "TND", { percent: "0.05", fixedMinor: 0n })).toEqual({
      feeMinor: 1n,
      netMinor: 999n,
    });
    // 1.000 * 0.0499 % = 0.000499 -> 0.000.
    expect(feeAndNet(1_000n, "TND", { percent: "0.0499", fixedMinor: 0n })).toEqual({
      feeMinor: 0n,
      netMinor: 1_000n,
    });
  });

  it("when a float would round the wrong way, then the exact half-up rounding still holds", () => {
    // 3.000 * 0.35 % = 0.0105 exactly -> 0.011; in floats it is 0.010499999999999999 -> 0.010.
    expect(Math.round(((3 * 0.35) / 100) * 1000)).toBe(10);
    expect(feeAndNet(3_000n, "TND", { percent: "0.35", fixedMinor: 0n })).toEqual({
      feeMinor: 11n,
      netMinor: 2_989n,
    });
  });

  it("when amounts are at the maximum, then the arithmetic stays exact", () => {
    // 999999.999 * 99.9999 % = 999998.999000001 exactly (a float says 999998.9990000009) -> 999998.999.
    expect(feeAndNet(999_999_999n, "TND", { percent: "99.9999", fixedMinor: 0n })).toEqual({
      feeMinor: 999_998_999n,
      netMinor: 1_000n,
    });
  });

  it("when the fees exceed the amount, then the fee is capped at the amount and the net is zero, never negative", () => {
    expect(feeAndNet(300n, "TND", { percent: "0", fixedMinor: 500n })).toEqual({
      feeMinor: 300n,
      netMinor: 0n,
    });
    expect(feeAndNet(1_000n, "TND", { percent: "99", fixedMinor: 100n })).toEqual({
      feeMinor: 1_000n,
      netMinor: 0n,
    });
  });

  it("when the merchant has no plan, then there is no fee", () => {
    expect(feeAndNet(125_500n, "TND", ZERO_FEE_PLAN)).toEqual({ feeMinor: 0n, netMinor: 125_500n });
  });

  it("when fee and net are added up, then they make the amount for any amount", () => {
    for (const amount of [1n, 7n, 999n, 1_001n, 33_333n, 123_456_789n]) {
      const { feeMinor, netMinor } = feeAndNet(amount, "TND", { percent: "2.9", fixedMinor: 300n });
      expect(feeMinor + netMinor).toBe(amount);
      expect(netMinor >= 0n).toBe(true);
    }
  });
});
