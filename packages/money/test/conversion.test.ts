import { describe, expect, it } from "vitest";
import {
  convertToSettlement,
  D,
  exceedsMaximum,
  formatAmount,
  formatRate,
  fromMinorUnits,
  MAX_AMOUNT_TND,
  parseAmount,
  parseRate,
  percentOf,
} from "../src/index.js";

function minor(text: string, currency: string) {
  const result = parseAmount(text, currency);
  if (!result.ok) throw new Error(result.message);
  return result.minor;
}

function rate(text: string) {
  const result = parseRate(text);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe("conversion to TND", () => {
  it("when 10.00 EUR is converted at 3.4, then it is 34.000 TND and the rate reads 3.400000", () => {
    const tnd = convertToSettlement(minor("10.00", "EUR"), "EUR", rate("3.4"));
    expect(fromMinorUnits(tnd, "TND")).toBe("34.000");
    expect(formatRate(rate("3.4"))).toBe("3.400000");
  });

  it("when the exact product is below half a millime, then it rounds to nothing", () => {
    // 0.01 * 0.0005 = 0.000005
    expect(convertToSettlement(minor("0.01", "EUR"), "EUR", rate("0.0005"))).toBe(0n);
  });

  it("when the exact product is exactly half a millime, then it rounds up", () => {
    // 0.01 * 0.05 = 0.0005
    expect(convertToSettlement(minor("0.01", "EUR"), "EUR", rate("0.05"))).toBe(1n);
  });

  it("when the product has more than 40 significant digits, then it is still rounded only once", () => {
    // Exact product ends in .01049999 -> .010. Rounding first to 40 significant digits (.0105)
    // and then to 3 decimals would give .011: the plain D precision must not be used here.
    const big = minor("100000000000000000000000000000000000.01", "EUR");
    const tnd = convertToSettlement(big, "EUR", new D("1.049999"));
    expect(fromMinorUnits(tnd, "TND")).toBe("104999900000000000000000000000000000.010");
    const rounded40 = new D("100000000000000000000000000000000000.01").times(new D("1.049999"));
    expect(rounded40.toDecimalPlaces(3).toFixed(3)).toBe("104999900000000000000000000000000000.011");
  });

  it("when the amount is in JPY, then the result still has TND precision", () => {
    const tnd = convertToSettlement(minor("1234", "JPY"), "JPY", rate("0.021234"));
    expect(fromMinorUnits(tnd, "TND")).toBe("26.203");
  });

  it("when the currency has four decimals (CLF), then its minor units are scaled by 10^-4", () => {
    // 1.2345 CLF at 100 = 123.450 TND
    expect(convertToSettlement(minor("1.2345", "CLF"), "CLF", rate("100"))).toBe(123450n);
  });
});

describe("maximum amount", () => {
  it("when the amount is exactly 999999.999 TND, then it is allowed", () => {
    expect(MAX_AMOUNT_TND.toFixed(3)).toBe("999999.999");
    expect(exceedsMaximum(minor("999999.999", "TND"))).toBe(false);
  });

  it("when the amount is 1000000.000 TND, then it is over the maximum", () => {
    expect(exceedsMaximum(minor("1000000.000", "TND"))).toBe(true);
  });

  it("when a EUR amount is under the maximum but over it after conversion, then the converted amount exceeds", () => {
    const tnd = convertToSettlement(minor("500000.00", "EUR"), "EUR", rate("3.4"));
    expect(fromMinorUnits(tnd, "TND")).toBe("1700000.000");
    expect(exceedsMaximum(tnd)).toBe(true);
  });
});

describe("percentOf", () => {
  it.each([
    ["100.000", "2.5", "TND", "2.500"],
    ["10.000", "1.75", "TND", "0.175"],
    ["0.100", "0.5", "TND", "0.001"],
    ["0.100", "0.4", "TND", "0.000"],
    ["19.99", "2.9", "EUR", "0.58"],
    ["1000", "3.33", "JPY", "33"],
    ["1000", "3.35", "JPY", "34"],
  ])(
    "when taking a fee on %s at %s percent in %s, then it is %s (half-up)",
    (value, percent, currency, fee) => {
      const result = percentOf(new D(value), new D(percent), currency);
      expect(formatAmount(result, currency)).toBe(fee);
      expect(result.decimalPlaces()).toBeLessThanOrEqual(3);
    },
  );
});
