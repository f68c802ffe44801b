import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currencyCodes } from "../src/currencies.js";
import {
  convertToSettlement,
  currencyInfo,
  D,
  formatAmount,
  formatRate,
  fromMinorUnits,
  parseAmount,
  parseRate,
  percentOf,
  toMinorUnits,
} from "../src/index.js";

const STRICT_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const currency = fc.constantFrom(...currencyCodes());
const positiveMinor = fc.bigInt({ min: 1n, max: 10n ** 15n });

function minorUnitsOf(code: string): number {
  const info = currencyInfo(code);
  if (info === undefined) throw new Error(`no currency ${code}`);
  return info.minorUnits;
}

/** Exact integer n / d rounded half away from zero, on bigints only. */
function divideHalfUp(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const magnitude = negative ? -n : n;
  const q = (magnitude * 2n + d) / (2n * d);
  return negative ? -q : q;
}

/** Any decimal value: mantissa * 10^-scale, built from integers so no float is involved. */
const anyDecimal = fc
  .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }))
  .map(([mantissa, scale]) => ({
    mantissa,
    scale,
    value: new D(mantissa.toString()).dividedBy(new D(10).pow(scale)),
  }));

/** Strings made of the characters that near-valid amounts are made of. */
const nearlyAmount = fc.string({
  unit: fc.constantFrom("0", "1", "5", "9", ".", "-", "+", "e", ",", " ", "'", "\u0661", "\u00a0"),
  maxLength: 12,
});

describe("money properties", () => {
  it("when any positive minor amount is written and read back, then it round-trips exactly", () => {
    fc.assert(
      fc.property(positiveMinor, currency, (minor, code) => {
        const text = fromMinorUnits(minor, code);
        const parsed = parseAmount(text, code);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.minor).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it("when any amount is formatted, then the text matches the strict grammar at the currency's precision", () => {
    fc.assert(
      fc.property(anyDecimal, fc.bigInt(), currency, ({ value }, minor, code) => {
        const decimals = minorUnitsOf(code);
        for (const text of [formatAmount(value, code), fromMinorUnits(minor, code)]) {
          expect(text).toMatch(STRICT_DECIMAL);
          expect(text.includes(".") ? text.split(".")[1]?.length : 0).toBe(decimals);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("when any decimal is formatted, then the result is the exact value rounded half-up (checked on bigints)", () => {
    fc.assert(
      fc.property(anyDecimal, currency, ({ mantissa, scale }, code) => {
        const decimals = minorUnitsOf(code);
        const value = new D(mantissa.toString()).dividedBy(new D(10).pow(scale));
        const expectedMinor =
          scale <= decimals
            ? mantissa * 10n ** BigInt(decimals - scale)
            : divideHalfUp(mantissa, 10n ** BigInt(scale - decimals));
        expect(formatAmount(value, code)).toBe(fromMinorUnits(expectedMinor, code));
      }),
      { numRuns: 1000 },
    );
  });

  it("when any rate is formatted, then it has exactly six decimals", () => {
    fc.assert(
      fc.property(anyDecimal, ({ value }) => {
        const text = formatRate(value);
        expect(text).toMatch(/^-?(0|[1-9][0-9]*)\.[0-9]{6}$/);
      }),
    );
  });

  it("when any amount is converted at any rate, then the TND result is the exact product rounded half-up once", () => {
    fc.assert(
      fc.property(
        positiveMinor,
        currency,
        fc.bigInt({ min: 1n, max: 10n ** 18n - 1n }),
        (minor, code, rateMicros) => {
          const decimals = minorUnitsOf(code);
          const parsed = parseAmount(fromMinorUnits(minor, code), code);
          const rate = parseRate(microsToText(rateMicros));
          expect(parsed.ok && rate.ok).toBe(true);
          if (!parsed.ok || !rate.ok) return;

          const tnd = convertToSettlement(parsed.minor, code, rate.value);
          // minor * 10^-decimals times rateMicros * 10^-6, expressed in millimes (10^-3).
          const expectedMillimes = divideHalfUp(minor * rateMicros, 10n ** BigInt(decimals + 3));
          expect(tnd).toBe(expectedMillimes);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("when any fee percentage is taken, then the result is the exact value rounded half-up once", () => {
    fc.assert(
      fc.property(
        positiveMinor,
        currency,
        fc.bigInt({ min: 0n, max: 10000n }),
        (minor, code, basisPoints) => {
          const decimals = minorUnitsOf(code);
          const value = new D(fromMinorUnits(minor, code));
          const percent = new D(basisPoints.toString()).dividedBy(100);
          const fee = percentOf(value, percent, code);
          // minor * basisPoints / 10^4 minor units
          expect(toMinorUnits(fee, code)).toBe(divideHalfUp(minor * basisPoints, 10000n));
          expect(fee.decimalPlaces()).toBeLessThanOrEqual(decimals);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("when parseAmount gets any string at all, then it returns a result and never throws", () => {
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      nearlyAmount,
    );
    fc.assert(
      fc.property(anyText, currency, (text, code) => {
        const result = parseAmount(text, code);
        expect(typeof result.ok).toBe("boolean");
        if (!result.ok)
          expect(["invalid_format", "invalid_precision", "invalid_value"]).toContain(result.code);
      }),
      { numRuns: 3000 },
    );
  });

  it("when parseAmount accepts a string, then that string is the canonical text of a positive amount", () => {
    fc.assert(
      fc.property(nearlyAmount, fc.constantFrom("TND", "EUR", "JPY", "CLF"), (text, code) => {
        const result = parseAmount(text, code);
        if (result.ok) {
          expect(result.minor > 0n).toBe(true);
          expect(fromMinorUnits(result.minor, code)).toBe(text);
        } else if (STRICT_DECIMAL.test(text)) {
          expect(result.code).not.toBe("invalid_format");
        } else {
          expect(result.code).toBe("invalid_format");
        }
      }),
      { numRuns: 5000 },
    );
  });
});

/** A rate in millionths as text with six decimals, e.g. 3400000n -> "3.400000". */
function microsToText(micros: bigint): string {
  const digits = micros.toString().padStart(7, "0");
  return `${digits.slice(0, -6)}.${digits.slice(-6)}`;
}
