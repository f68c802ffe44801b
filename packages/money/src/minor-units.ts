import type { Decimal } from "decimal.js";
import { requireCurrency } from "./currencies.js";
import { D, toFixedHalfUp } from "./decimal.js";

/**
 * The amount as an integer count of the currency's minor unit (what storage and the acquirer
 * use): 34.000 TND -> 34000n. Refuses to round: a value with more decimals than the currency
 * has is a bug upstream, not something to hide.
 */
export function toMinorUnits(value: Decimal, currency: string): bigint {
  const { code, minorUnits } = requireCurrency(currency);
  const exact = new D(value);
  if (!exact.isFinite()) {
    throw new Error(`cannot express ${exact.toString()} in ${code} minor units`);
  }
  if (exact.decimalPlaces() > minorUnits) {
    throw new Error(`${exact.toString()} has more than the ${minorUnits} decimal places ${code} allows`);
  }
  // toFixed is exact here (no digit is dropped); removing the point scales by 10^minorUnits.
  return BigInt(exact.toFixed(minorUnits).replace(".", ""));
}

/** The decimal string of a minor-unit count: 34000n TND -> "34.000", 5n EUR -> "0.05". */
export function fromMinorUnits(minor: bigint, currency: string): string {
  const { minorUnits } = requireCurrency(currency);
  const sign = minor < 0n ? "-" : "";
  const digits = (minor < 0n ? -minor : minor).toString().padStart(minorUnits + 1, "0");
  if (minorUnits === 0) return sign + digits;
  const split = digits.length - minorUnits;
  return `${sign}${digits.slice(0, split)}.${digits.slice(split)}`;
}

/** The value at the currency's precision, rounded half-up if it has more decimals. */
export function formatAmount(value: Decimal, currency: string): string {
  return toFixedHalfUp(value, requireCurrency(currency).minorUnits);
}
