import { GatewayError } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { defaultFeePlan, formatFixedFee, parseFeePlanInput } from "../src/domain/fee-plan.js";

function violationsOf(input: { percent: string; fixed: string }): Array<[string, string, string]> {
  try {
    parseFeePlanInput(input);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return (err as GatewayError).violations.map(({ field, code, message }) => [field, code, message]);
  }
  throw new Error("expected a validation error");
}

describe("fee plan input", () => {
  it.each([
    ["2.5", "0.250", "2.5", 250n],
    ["2.50", "1.000", "2.5", 1000n],
    ["0", "0.000", "0", 0n],
    ["0.0000", "0.000", "0", 0n],
    ["99.9999", "999999.999", "99.9999", 999999999n],
    ["10", "0.005", "10", 5n],
  ])(
    "when percent is %s and fixed %s, then the plan is %s%% + %s millimes",
    (percent, fixed, normalised, fixedMinor) => {
      expect(parseFeePlanInput({ percent, fixed })).toEqual({ percent: normalised, fixedMinor });
    },
  );

  it.each([
    ["100", "percent must be less than 100"],
    ["100.0", "less than 100"],
    ["1.23456", "at most 4 decimal places"],
    ["-1", "decimal string"],
    ["+1", "decimal string"],
    ["01.5", "decimal string"],
    ["1e1", "decimal string"],
    [" 1", "decimal string"],
    ["1.", "decimal string"],
    ["1,5", "decimal string"],
  ])("when percent is %j, then percent is invalid (%s)", (percent, message) => {
    expect(violationsOf({ percent, fixed: "0.000" })).toEqual([
      ["percent", "invalid", expect.stringContaining(message)],
    ]);
  });

  it.each([["0"], ["0.25"], ["0.2500"], ["-0.250"], ["1000000.000"], ["0.25 "], ["1e3"]])(
    "when fixed is %j, then fixed is invalid",
    (fixed) => {
      expect(violationsOf({ percent: "1", fixed })).toEqual([
        ["fixed", "invalid", expect.stringMatching(/^fixed must be/)],
      ]);
    },
  );

  it("when both are empty, then both are required in one answer", () => {
    expect(violationsOf({ percent: "", fixed: "" })).toEqual([
      ["percent", "required", "percent is required."],
      ["fixed", "required", "fixed is required."],
    ]);
  });

  it("when a merchant has no plan, then the default is 0% + 0.000 TND", () => {
    const plan = defaultFeePlan("mer_1");
    expect(plan).toEqual({ merchantId: "mer_1", percent: "0", fixedMinor: 0n });
    expect(formatFixedFee(plan)).toBe("0.000");
  });

  it("when the fixed part is shown, then it has three decimals", () => {
    expect(formatFixedFee({ merchantId: "m", percent: "1", fixedMinor: 1234567n })).toBe("1234.567");
  });
});
