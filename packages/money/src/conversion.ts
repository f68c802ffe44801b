import type { Decimal } from "decimal.js";
import { requireCurrency, SETTLEMENT_CURRENCY } from "./currencies.js";
import { D, exactTimes } from "./decimal.js";

/** Largest amount a session may carry, in TND, before or after conversion (docs/api/limits.md#sizes). */
export const MAX_AMOUNT_TND: Decimal = new D("999999.999");

const ONE_PERCENT = new D("0.01");

/**
 * A foreign amount in TND: the exact product rounded half-up once, to TND's 3 decimals.
 * A result of zero means the amount rounds to nothing in TND (the caller's invalid_value).
 */
export function convertToSettlement(amount: Decimal, rate: Decimal): Decimal {
  const { minorUnits } = requireCurrency(SETTLEMENT_CURRENCY);
  return exactTimes(amount, rate).toDecimalPlaces(minorUnits, D.ROUND_HALF_UP);
}

export function exceedsMaximum(amountTnd: Decimal): boolean {
  return new D(amountTnd).greaterThan(MAX_AMOUNT_TND);
}

/** `percent`% of `amount` (e.g. a fee), rounded half-up once to the currency's decimals. */
export function percentOf(amount: Decimal, percent: Decimal, currency: string): Decimal {
  const { minorUnits } = requireCurrency(currency);
  // Multiplying by 0.01 rather than dividing by 100 keeps the whole computation exact.
  return exactTimes(exactTimes(amount, percent), ONE_PERCENT).toDecimalPlaces(minorUnits, D.ROUND_HALF_UP);
}
