import { requireCurrency } from "./currencies.js";
import { fractionDigits, STRICT_DECIMAL } from "./decimal.js";

/** The amount violation codes (docs/api/errors.md#validation-errors); the API layer puts them in `violations`. */
export type AmountErrorCode = "invalid_format" | "invalid_precision" | "invalid_value";

/** `minor` is the amount in the currency's minor units: "34.500" TND is 34500n. */
export type AmountParse = { ok: true; minor: bigint } | { ok: false; code: AmountErrorCode; message: string };

/**
 * Reads a merchant's amount string. Checks run in the order errors.md lists them: the text must
 * be a plain decimal (no thousands separators, leading zeros, exponent, spaces or "+"), carry
 * exactly the currency's number of decimals, and be greater than zero. A minus sign is
 * well-formed so that "-5.000" is reported as a bad value, not as unreadable text.
 *
 * The amount comes back as an integer count of minor units. The text has exactly the currency's
 * decimals, so dropping its point scales it by 10^decimals with no digit lost: an exact reading,
 * with no arithmetic and no Decimal (docs/decisions.md#amount-text-is-read-straight-into-minor-units).
 *
 * Throws only when `currency` is not an ISO 4217 code: callers validate the currency first.
 */
export function parseAmount(text: string, currency: string): AmountParse {
  const { code, minorUnits } = requireCurrency(currency);
  // Typed as string, but the value often comes straight from JSON: never throw on it.
  if (typeof text !== "string" || !STRICT_DECIMAL.test(text)) {
    return {
      ok: false,
      code: "invalid_format",
      message: `amount must be a decimal string like "${example(minorUnits)}": digits only, no thousands separators, leading zeros, exponent, sign or spaces`,
    };
  }
  if (fractionDigits(text) !== minorUnits) {
    return {
      ok: false,
      code: "invalid_precision",
      message: `amount in ${code} must have exactly ${minorUnits} decimal place${minorUnits === 1 ? "" : "s"}, like "${example(minorUnits)}"`,
    };
  }
  const minor = BigInt(text.replace(".", ""));
  if (minor <= 0n) {
    return { ok: false, code: "invalid_value", message: "amount must be greater than zero" };
  }
  return { ok: true, minor };
}

function example(minorUnits: number): string {
  return minorUnits === 0 ? "10" : `10.${"0".repeat(minorUnits)}`;
}
