import type { JsonOutput } from "@gateway/platform";
import { type Refund, RefundStatus, RefundType } from "@gateway/proto";
import { formatTimestamp } from "./rfc3339.js";

function required(refund: Refund | undefined): Refund {
  if (!refund) throw new Error("refunds service answered without a refund");
  return refund;
}

/**
 * The refund result (docs/api/refunds.md#the-refund-result). `epg_error_message` is there only when the refund was not
 * confirmed automatically: its absence is how a merchant tells the two cases apart.
 */
export function refundResultToJson(answer: Refund | undefined): JsonOutput {
  const refund = required(answer);
  return {
    refund_id: refund.id,
    refunded_amount: refund.amount,
    automated_refund: refund.automated,
    ...(refund.automated ? {} : { epg_error_message: refund.acquirerErrorMessage }),
  };
}

const name = (value: string | undefined): string | null => value ?? null;
const text = (value: string): string | null => (value === "" ? null : value);

/** A refund record as the admin API shows it to operations (docs/api/admin.md#manual-refunds). */
export function adminRefundToJson(answer: Refund | undefined): JsonOutput {
  const refund = required(answer);
  return {
    id: refund.id,
    session_id: refund.sessionId,
    merchant_id: refund.scope?.merchantId ?? null,
    mode: refund.scope ? (refund.scope.livemode ? "live" : "test") : null,
    refund_type: refund.refundType === RefundType.UNSPECIFIED ? null : name(RefundType[refund.refundType]),
    status: refund.status === RefundStatus.UNSPECIFIED ? null : name(RefundStatus[refund.status]),
    amount: refund.amount,
    currency: refund.currency,
    reason: text(refund.reason),
    automated: refund.automated,
    acquirer_error_message: text(refund.acquirerErrorMessage),
    created_at: formatTimestamp(refund.createdAt),
  };
}
