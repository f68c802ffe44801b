import { parseAmount, SETTLEMENT_CURRENCY } from "@gateway/money";

/**
 * The refund form of a session's page. It is posted twice: first to review (nothing happens,
 * the page asks "refund X TND?"), then with `confirm=yes` from that review page to refund.
 */
export interface RefundForm {
  type: "FULL" | "PARTIAL";
  /** Exact TND decimal string as typed; empty for FULL. */
  amount: string;
  reason: string;
  confirmed: boolean;
}

export type RefundFormProblem = "unknown_type" | "amount_required" | "invalid_amount" | "reason_too_long";

export type RefundFormRead = { ok: true; form: RefundForm } | { ok: false; problems: RefundFormProblem[] };

/** The dashboard's bound on a typed reason (it travels in every refund webhook). */
const MAX_REASON_LENGTH = 500;

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/**
 * Reads the posted refund form. A PARTIAL amount must be an exact TND decimal with 3 decimals
 * (it goes to the refunds service as that string, never through a float); whether it fits the
 * session's refundable balance is the refunds service's answer, not this form's.
 */
export function readRefundForm(body: Record<string, unknown>): RefundFormRead {
  const type = text(body.type);
  const amount = text(body.amount);
  const reason = text(body.reason);
  const problems: RefundFormProblem[] = [];
  if (type !== "FULL" && type !== "PARTIAL") problems.push("unknown_type");
  if (type === "PARTIAL") {
    if (amount === "") problems.push("amount_required");
    else if (!parseAmount(amount, SETTLEMENT_CURRENCY).ok) problems.push("invalid_amount");
  }
  if (reason.length > MAX_REASON_LENGTH) problems.push("reason_too_long");
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    form: {
      type: type as RefundForm["type"],
      amount: type === "PARTIAL" ? amount : "",
      reason,
      confirmed: text(body.confirm) === "yes",
    },
  };
}
