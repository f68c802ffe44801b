import { D, fromMinorUnits, MAX_AMOUNT_TND, SETTLEMENT_CURRENCY, toMinorUnits } from "@gateway/money";
import { type FieldViolation, GatewayError } from "@gateway/platform";

/**
 * What the gateway charges a merchant per successful payment:
 * fee = amount × percent / 100 + fixed, in TND, rounded half-up to 3 decimals by the caller.
 */
export interface FeePlan {
  merchantId: string;
  /** Decimal string without trailing zeros: "2.5", "0", "1.2345". 0 ≤ percent < 100. */
  percent: string;
  /** The fixed part in TND minor units (millimes). */
  fixedMinor: bigint;
  /** Unset for the default plan of a merchant that never had one set. */
  updatedAt?: Date;
}

export const FEE_PERCENT_MAX_DECIMALS = 4;
const FEE_PERCENT_LIMIT = new D(100);
// Non-negative plain decimals only: no sign, exponent, spaces, leading zeros or separators.
const UNSIGNED_DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const TND_DECIMALS = 3;

/** A merchant with no plan pays nothing. */
export function defaultFeePlan(merchantId: string): FeePlan {
  return { merchantId, percent: "0", fixedMinor: 0n };
}

/** The fixed part as the API shows it: "0.250". */
export function formatFixedFee(plan: FeePlan): string {
  return fromMinorUnits(plan.fixedMinor, SETTLEMENT_CURRENCY);
}

function fractionDigits(text: string): number {
  const point = text.indexOf(".");
  return point === -1 ? 0 : text.length - point - 1;
}

function checkPercent(raw: string): { percent: string } | { violation: FieldViolation } {
  const invalid = (message: string) => ({ violation: { field: "percent", code: "invalid", message } });
  if (raw === "")
    return { violation: { field: "percent", code: "required", message: "percent is required." } };
  if (!UNSIGNED_DECIMAL.test(raw)) {
    return invalid(
      'percent must be a decimal string such as "2.5": digits only, no sign, exponent, leading zeros or spaces.',
    );
  }
  if (fractionDigits(raw) > FEE_PERCENT_MAX_DECIMALS)
    return invalid(`percent must have at most ${FEE_PERCENT_MAX_DECIMALS} decimal places.`);
  const value = new D(raw);
  if (value.greaterThanOrEqualTo(FEE_PERCENT_LIMIT)) return invalid("percent must be less than 100.");
  // decimal.js prints the shortest form: "2.50" -> "2.5", "0.0000" -> "0".
  return { percent: value.toString() };
}

/** Written like an amount (exactly 3 decimals, as in session amounts), but zero is allowed. */
function checkFixed(raw: string): { fixedMinor: bigint } | { violation: FieldViolation } {
  const invalid = (message: string) => ({ violation: { field: "fixed", code: "invalid", message } });
  if (raw === "") return { violation: { field: "fixed", code: "required", message: "fixed is required." } };
  if (!UNSIGNED_DECIMAL.test(raw) || fractionDigits(raw) !== TND_DECIMALS) {
    return invalid(
      `fixed must be zero or more ${SETTLEMENT_CURRENCY}, as a decimal string with exactly ${TND_DECIMALS} decimal places such as "0.250".`,
    );
  }
  const value = new D(raw);
  if (value.greaterThan(MAX_AMOUNT_TND))
    return invalid(`fixed must be at most ${MAX_AMOUNT_TND.toFixed(TND_DECIMALS)} ${SETTLEMENT_CURRENCY}.`);
  return { fixedMinor: toMinorUnits(value, SETTLEMENT_CURRENCY) };
}

/** Validates both parts at once so the operator sees every problem in one answer. */
export function parseFeePlanInput(raw: { percent: string; fixed: string }): {
  percent: string;
  fixedMinor: bigint;
} {
  const percent = checkPercent(raw.percent);
  const fixed = checkFixed(raw.fixed);
  const violations = [percent, fixed].flatMap((checked) =>
    "violation" in checked ? [checked.violation] : [],
  );
  if ("violation" in percent || "violation" in fixed) throw GatewayError.validation(violations);
  return { percent: percent.percent, fixedMinor: fixed.fixedMinor };
}
