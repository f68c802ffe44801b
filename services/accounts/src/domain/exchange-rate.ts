import { formatRate, isCurrencyCode, parseRate, SETTLEMENT_CURRENCY } from "@gateway/money";
import { type FieldViolation, GatewayError } from "@gateway/platform";

/** 1 unit of `currency` equals `rate` of the settlement currency (TND), for one merchant. */
export interface ExchangeRate {
  merchantId: string;
  currency: string;
  /** Decimal string with exactly 6 decimal places. */
  rate: string;
  updatedAt: Date;
  /**
   * The dashboard user who set it (`usr_…`); absent when the operator set it through the admin
   * API, which has no user of its own to name.
   */
  setBy?: string;
}

function currencyViolation(): FieldViolation {
  return {
    field: "currency",
    code: "invalid",
    message: `currency must be an ISO 4217 code other than ${SETTLEMENT_CURRENCY}, the settlement currency.`,
  };
}

function checkCurrency(raw: string): { currency: string } | { violation: FieldViolation } {
  // Codes are case-insensitive to callers (Stripe accepts "eur"); stored upper case.
  const currency = raw.trim().toUpperCase();
  if (!isCurrencyCode(currency) || currency === SETTLEMENT_CURRENCY)
    return { violation: currencyViolation() };
  return { currency };
}

/** A currency that may carry an exchange rate: a known ISO 4217 code, not TND. */
export function parseRateCurrency(raw: string): string {
  const checked = checkCurrency(raw);
  if ("violation" in checked) throw GatewayError.validation([checked.violation]);
  return checked.currency;
}

/** Validates both fields at once so the caller sees every problem in one answer. */
export function parseExchangeRateInput(raw: { currency: string; rate: string }): {
  currency: string;
  rate: string;
} {
  const violations: FieldViolation[] = [];
  const checked = checkCurrency(raw.currency);
  if ("violation" in checked) violations.push(checked.violation);
  const parsed = parseRate(raw.rate);
  if (!parsed.ok) violations.push({ field: "rate", code: "invalid", message: parsed.message });
  if (violations.length > 0 || "violation" in checked || !parsed.ok)
    throw GatewayError.validation(violations);
  return { currency: checked.currency, rate: formatRate(parsed.value) };
}
