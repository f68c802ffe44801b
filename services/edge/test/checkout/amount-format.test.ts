import { describe, expect, it } from "vitest";
import { formatDecimal, formatMoney, lineTotal } from "../../src/checkout/amount-format.js";

describe("amounts on the checkout pages", () => {
  it("when the language is French, then a comma marks decimals and a narrow no-break space groups", () => {
    expect(formatMoney("125.500", "TND", "fr")).toBe("125,500\u00a0TND");
    expect(formatMoney("1234567.890", "TND", "fr")).toBe("1\u202f234\u202f567,890\u00a0TND");
  });

  it("when the language is English or Arabic, then Western digits with a decimal point", () => {
    expect(formatMoney("1234.500", "TND", "en")).toBe("1,234.500\u00a0TND");
    expect(formatMoney("1234.500", "TND", "ar")).toBe("1,234.500\u00a0TND");
    expect(formatMoney("1234.500", "TND", "ar")).not.toMatch(/[\u0660-\u0669]/);
  });

  it("keeps every digit of amounts no JS number holds exactly, and pads to the currency's decimals", () => {
    expect(formatMoney("999999999999999999.999", "TND", "en")).toBe("999,999,999,999,999,999.999\u00a0TND");
    expect(formatMoney("0.1", "TND", "en")).toBe("0.100\u00a0TND");
    expect(formatMoney("12.5", "EUR", "fr")).toBe("12,50\u00a0EUR");
    expect(formatMoney("500", "JPY", "en")).toBe("500\u00a0JPY");
    expect(formatMoney("0.1234", "TND", "en")).toBe("0.1234\u00a0TND");
  });

  it("shows an unreadable amount as it came rather than inventing one", () => {
    expect(formatMoney("1e3", "TND", "en")).toBe("1e3\u00a0TND");
  });

  it("formats rates and line totals exactly", () => {
    expect(formatDecimal("3.300000", "fr")).toBe("3,300000");
    expect(formatDecimal("3.300000", "en")).toBe("3.300000");
    expect(lineTotal("0.10", 3)).toBe("0.30");
    expect(lineTotal("333333333333.333", 3)).toBe("999999999999.999");
    expect(lineTotal("abc", 2)).toBeUndefined();
  });
});
