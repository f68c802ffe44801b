import type { Decimal } from "decimal.js";
import { requireCurrency, SETTLEMENT_CURRENCY } from "./currencies.js";
import { D, exactTimes } from "./decimal.js";
import { fromMinorUnits, toMinorUnits } from "./minor-units.js";

/** Largest amount a session may carry, in TND, before or after conversion (docs/api/limits.md#sizes). */
export const MAX_AMOUNT_TND: Decimal = new D("999999.999");
const MAX_AMOUNT_TND_MINOR = toMinorUnits(MAX_AMOUNT_TND, SETTLEMENT_CURRENCY);

const ONE_PERCENT = new D("0.01");

/**
 * `minor` minor units of a foreign `currency` in TND minor units (millimes): the exact product
 * with the rate, rounded half-up once to TND's 3 decimals. A result of zero means the amount
 * rounds to nothing in TND (the caller's invalid_value).
 */
export function convertToSettlement(minor: bigint, currency: string, rate: Decimal): bigint {
  const { minorUnits } = requireCurrency(SETTLEMENT_CURRENCY);
  const amount = new D(fromMinorUnits(minor, currency));
  return toMinorUnits(
    exactTimes(amount, rate).toDecimalPlaces(minorUnits, D.ROUND_HALF_UP),
    SETTLEMENT_CURRENCY,
  );
}

/** Whether a TND amount, in millimes, is over the most a session may carry. */
export function exceedsMaximum(minorTnd: bigint): boolean {
  return minorTnd > MAX_AMOUNT_TND_MINOR;
}

/** `percent`% of `amount` (e.g. a fee), rounded half-up once to the currency's decimals. */
export function percentOf(amount: Decimal, percent: Decimal, currency: string): Decimal {
  const { minorUnits } = requireCurrency(currency);
  // Multiplying by 0.01 rather than dividing by 100 keeps the whole computation exact.
  return exactTimes(exactTimes(amount, percent), ONE_PERCENT).toDecimalPlaces(minorUnits, D.ROUND_HALF_UP);
}
