import type { Decimal } from "decimal.js";
import { D, fractionDigits, integerDigits, STRICT_DECIMAL, toFixedHalfUp } from "./decimal.js";

/** Rates are quoted with six decimals everywhere (spec: `original.rate`). */
const RATE_DECIMALS = 6;
/** Bounds the size of a stored rate; no real currency is worth 10^12 dinars. */
const RATE_MAX_INTEGER_DIGITS = 12;

export type RateParse = { ok: true; value: Decimal } | { ok: false; message: string };

/** Reads an exchange rate (1 unit of a currency = rate TND): "3.4", "0.000123", "1". */
export function parseRate(text: string): RateParse {
  if (typeof text !== "string" || !STRICT_DECIMAL.test(text)) {
    return {
      ok: false,
      message:
        'rate must be a decimal string like "3.400000": digits only, no thousands separators, leading zeros, exponent, sign or spaces',
    };
  }
  if (fractionDigits(text) > RATE_DECIMALS) {
    return { ok: false, message: `rate must have at most ${RATE_DECIMALS} decimal places` };
  }
  if (integerDigits(text) > RATE_MAX_INTEGER_DIGITS) {
    return {
      ok: false,
      message: `rate must have at most ${RATE_MAX_INTEGER_DIGITS} digits before the decimal point`,
    };
  }
  const value = new D(text);
  if (value.isNegative() || value.isZero()) {
    return { ok: false, message: "rate must be greater than zero" };
  }
  return { ok: true, value };
}

/** The rate with exactly six decimals: 3.4 -> "3.400000". */
export function formatRate(rate: Decimal): string {
  return toFixedHalfUp(rate, RATE_DECIMALS);
}
