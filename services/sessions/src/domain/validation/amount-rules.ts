import {
  convertToSettlement,
  type Dec,
  exceedsMaximum,
  formatAmount,
  fromMinorUnits,
  MAX_AMOUNT_TND,
  parseAmount,
  SETTLEMENT_CURRENCY,
} from "@gateway/money";
import type { FieldViolation } from "@gateway/platform";
import { violation } from "./field-rules.js";

/** `minor` is the amount in its currency's minor units. */
export type AmountCheck = { ok: true; minor: bigint } | { ok: false; violation?: FieldViolation };

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

/** `minor` is the settlement (TND) amount in millimes. */
export type SettlementCheck = { ok: true; minor: bigint } | { ok: false; violation: FieldViolation };

const MAX_TEXT = `${formatAmount(MAX_AMOUNT_TND, SETTLEMENT_CURRENCY)} TND`;

/**
 * The settlement (TND) value of `minor` units of `currency`: itself in TND, or converted at
 * `rate` and rounded half-up to 3 decimals. It must be neither zero (a foreign amount too small
 * to charge) nor above the maximum.
 */
export function checkSettlement(field: string, minor: bigint, currency: string, rate: Dec): SettlementCheck {
  const foreign = currency !== SETTLEMENT_CURRENCY;
  const settled = foreign ? convertToSettlement(minor, currency, rate) : minor;
  if (settled === 0n) {
    return {
      ok: false,
      violation: violation(
        field,
        "invalid_value",
        `${field} ${fromMinorUnits(minor, currency)} ${currency} rounds to nothing in TND.`,
      ),
    };
  }
  if (exceedsMaximum(settled)) {
    const converted = foreign
      ? ` (${fromMinorUnits(minor, currency)} ${currency} is ${fromMinorUnits(settled, SETTLEMENT_CURRENCY)} TND)`
      : "";
    return {
      ok: false,
      violation: violation(field, "amount_too_large", `${field} must not exceed ${MAX_TEXT}${converted}.`),
    };
  }
  return { ok: true, minor: settled };
}
