import { describe, expect, it } from "vitest";
import { currencyCodes } from "../src/currencies.js";
import { currencyInfo, isCurrencyCode, SETTLEMENT_CURRENCY } from "../src/index.js";

describe("ISO 4217 table", () => {
  it.each([
    ["TND", "788", 3],
    ["EUR", "978", 2],
    ["USD", "840", 2],
    ["JPY", "392", 0],
    ["KWD", "414", 3],
    ["BHD", "048", 3],
    ["OMR", "512", 3],
    ["JOD", "400", 3],
    ["LYD", "434", 3],
    ["IQD", "368", 3],
    ["CLF", "990", 4],
    ["UYW", "927", 4],
    ["MAD", "504", 2],
    ["DZD", "012", 2],
    ["GBP", "826", 2],
    ["CHF", "756", 2],
    ["KRW", "410", 0],
    ["XOF", "952", 0],
  ])("when asked for %s, then it has numeric %s and %i minor units", (code, numeric, minor) => {
    expect(currencyInfo(code)).toMatchObject({ code, numeric, minorUnits: minor });
    expect(isCurrencyCode(code)).toBe(true);
  });

  it("when the settlement currency is looked up, then it is the Tunisian dinar with 3 decimals", () => {
    expect(SETTLEMENT_CURRENCY).toBe("TND");
    expect(currencyInfo(SETTLEMENT_CURRENCY)).toEqual({
      code: "TND",
      numeric: "788",
      minorUnits: 3,
      name: "Tunisian Dinar",
    });
  });

  it.each(["XAU", "XAG", "XPT", "XPD", "XDR", "XTS", "XXX", "XSU", "XUA", "XBA", "XBB", "XBC", "XBD"])(
    "when the code is the non-payable unit %s, then it is not a currency",
    (code) => {
      expect(currencyInfo(code)).toBeUndefined();
      expect(isCurrencyCode(code)).toBe(false);
    },
  );

  it.each([
    "eur",
    "Eur",
    " EUR",
    "EUR ",
    "EU",
    "EURO",
    "",
    "HRK",
    "ZZZ",
    "constructor",
    "__proto__",
    "toString",
  ])("when the code is %j, then it is not recognised", (code) => {
    expect(currencyInfo(code)).toBeUndefined();
    expect(isCurrencyCode(code)).toBe(false);
  });

  it("when the table is listed, then every entry is well-formed and numeric codes are unique", () => {
    const codes = currencyCodes();
    expect(codes.length).toBeGreaterThan(150);
    const numerics = new Set<string>();
    for (const code of codes) {
      const info = currencyInfo(code);
      expect(info?.code).toBe(code);
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect(info?.numeric).toMatch(/^[0-9]{3}$/);
      expect([0, 2, 3, 4]).toContain(info?.minorUnits);
      expect(info?.name.length).toBeGreaterThan(0);
      numerics.add(info?.numeric ?? "");
    }
    expect(numerics.size).toBe(codes.length);
  });

  it("when a caller tries to change an entry, then the table stays intact", () => {
    const info = currencyInfo("TND");
    expect(Object.isFrozen(info)).toBe(true);
  });
});
