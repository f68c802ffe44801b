import {
  convertToSettlement,
  D,
  type Dec,
  exceedsMaximum,
  formatAmount,
  MAX_AMOUNT_TND,
  parseAmount,
  SETTLEMENT_CURRENCY,
} from "@gateway/money";
import type { FieldViolation } from "@gateway/platform";
import { violation } from "./field-rules.js";

export type AmountCheck = { ok: true; value: Dec } | { ok: false; violation?: FieldViolation };

/**
 * An amount string in `currency`. When the currency itself is invalid the precision can't be
 * judged, so only the format and sign are checked (against TND's rules) and `ok` is false
 * without a violation of its own: the currency's violation explains it.
 */
export function checkAmountText(field: string, text: string, currency: string | undefined): AmountCheck {
  if (text === "") return { ok: false, violation: violation(field, "required", `${field} is required.`) };
  const parsed = parseAmount(text, currency ?? SETTLEMENT_CURRENCY);
  if (parsed.ok) return currency ? parsed : { ok: false };
  if (!currency && parsed.code === "invalid_precision") return { ok: false };
  return {
    ok: false,
    violation: violation(field, parsed.code, `${parsed.message.replace(/^amount\b/, field)}.`),
  };
}

export type SettlementCheck = { ok: true; value: Dec } | { ok: false; violation: FieldViolation };

/**
 * The settlement (TND) value of an amount at `rate`, rounded half-up to 3 decimals, which must
 * be neither zero (a foreign amount too small to charge) nor above the maximum.
 */
export function checkSettlement(field: string, value: Dec, currency: string, rate: Dec): SettlementCheck {
  const foreign = currency !== SETTLEMENT_CURRENCY;
  const settled = foreign ? convertToSettlement(value, rate) : value;
  if (settled.isZero()) {
    return {
      ok: false,
      violation: violation(
        field,
        "invalid_value",
        `${field} ${formatAmount(value, currency)} ${currency} rounds to nothing in TND.`,
      ),
    };
  }
  if (exceedsMaximum(settled)) {
    const converted = foreign
      ? ` (${formatAmount(value, currency)} ${currency} is ${formatAmount(settled, SETTLEMENT_CURRENCY)} TND)`
      : "";
    return {
      ok: false,
      violation: violation(
        field,
        "amount_too_large",
        `${field} must not exceed ${formatAmount(MAX_AMOUNT_TND, SETTLEMENT_CURRENCY)} TND${converted}.`,
      ),
    };
  }
  return { ok: true, value: new D(settled) };
}
