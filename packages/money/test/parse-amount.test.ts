import { describe, expect, it } from "vitest";
import { fromMinorUnits, parseAmount } from "../src/index.js";

function failure(text: string, currency: string) {
  const result = parseAmount(text, currency);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
  return result;
}

describe("parseAmount", () => {
  describe("format", () => {
    it.each([
      ["thousands separator comma", "1,000.000"],
      ["thousands separator space", "1 000.000"],
      ["thousands separator apostrophe", "1'000.000"],
      ["thousands separator apostrophe, no fraction", "1'000"],
      ["thousands separator narrow no-break space", "1\u202f000.000"],
      ["decimal comma", "10,000"],
      ["leading zero", "01.000"],
      ["double leading zero", "00.500"],
      ["leading zeros on an integer", "007"],
      ["exponent", "1e3"],
      ["exponent with fraction", "1.000e3"],
      ["upper-case exponent", "1E3"],
      ["leading space", " 10.000"],
      ["trailing space", "10.000 "],
      ["inner space", "10. 000"],
      ["trailing newline", "10.000\n"],
      ["tab", "\t10.000"],
      ["empty", ""],
      ["missing integer part", ".5"],
      ["missing fraction digits", "5."],
      ["lone point", "."],
      ["lone minus", "-"],
      ["plus sign", "+5"],
      ["plus sign with fraction", "+5.000"],
      ["double minus", "--5.000"],
      ["NaN", "NaN"],
      ["Infinity", "Infinity"],
      ["negative Infinity", "-Infinity"],
      ["hex", "0x10"],
      ["binary", "0b101"],
      ["octal", "0o17"],
      ["underscore separator", "1_000.000"],
      ["Arabic-Indic digits", "\u0661\u0660.\u0660\u0660\u0660"],
      ["full-width digits", "\uff11\uff10.\uff10\uff10\uff10"],
      ["currency symbol", "10.000 TND"],
      ["two points", "10.000.000"],
      ["letters", "ten"],
    ])("when the amount has a %s (%j), then it is invalid_format", (_case, text) => {
      expect(failure(text, "TND").code).toBe("invalid_format");
    });

    it("when the input is not a string at all (raw JSON number), then it is invalid_format, not a crash", () => {
      expect(failure(10 as unknown as string, "TND").code).toBe("invalid_format");
      expect(failure(null as unknown as string, "TND").code).toBe("invalid_format");
    });

    it("when the format is wrong, then the message says what a valid amount looks like", () => {
      expect(failure("1,000.000", "TND").message).toContain('"10.000"');
      expect(failure("1,000.00", "EUR").message).toContain('"10.00"');
    });
  });

  describe("precision", () => {
    it.each([
      ["TND", "10.000", ["10.00", "10", "10.0", "10.0000"]],
      ["EUR", "10.00", ["10.000", "10", "10.0"]],
      ["JPY", "10", ["10.0", "10.00"]],
      ["KWD", "10.000", ["10.00", "10", "10.0000"]],
      ["CLF", "10.0000", ["10.000", "10", "10.00000"]],
    ] as const)(
      "when the currency is %s, then %s is accepted and other precisions are not",
      (currency, good, bad) => {
        const ok = parseAmount(good, currency);
        expect(ok.ok && fromMinorUnits(ok.minor, currency)).toBe(good);
        for (const text of bad) {
          const result = failure(text, currency);
          expect(result.code).toBe("invalid_precision");
          expect(result.message).toContain(currency);
        }
      },
    );

    it("when the precision is wrong on a negative amount, then precision is reported first", () => {
      expect(failure("-1.00", "TND").code).toBe("invalid_precision");
    });
  });

  describe("value", () => {
    it.each([
      ["0.000", "TND"],
      ["-1.000", "TND"],
      ["-0.000", "TND"],
      ["-5.000", "TND"],
      ["0.00", "EUR"],
      ["0", "JPY"],
    ])("when the amount is %s %s, then it is invalid_value", (text, currency) => {
      const result = failure(text, currency);
      expect(result.code).toBe("invalid_value");
      expect(result.message).toBe("amount must be greater than zero");
    });

    it.each([
      ["0.001", "TND", 1n],
      ["34.000", "TND", 34000n],
      ["999999.999", "TND", 999999999n],
      ["0.01", "EUR", 1n],
      ["10.50", "EUR", 1050n],
      [
        "123456789012345678901234567890123456789012345.67",
        "EUR",
        12345678901234567890123456789012345678901234567n,
      ],
      ["12", "JPY", 12n],
      ["0.0001", "CLF", 1n],
    ])(
      "when the amount is %s %s, then its exact count of minor units is returned",
      (text, currency, expected) => {
        const result = parseAmount(text, currency);
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.minor).toBe(expected);
      },
    );
  });

  it("when the currency is unknown, then it throws because callers must validate it first", () => {
    expect(() => parseAmount("10.000", "XXX")).toThrow(/unknown ISO 4217 currency code/);
    expect(() => parseAmount("10.000", "tnd")).toThrow(/unknown ISO 4217 currency code/);
  });
});
