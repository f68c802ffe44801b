import { type JsonOutput, stringifyWithRaw } from "@gateway/platform";
import { type EnvelopeWarning, metadataValue, orNull } from "./envelope.js";
import type { RefundEventFacts } from "./webhook-event.js";

/**
 * The webhook body of refund.succeeded / refund.failed as its exact JSON text: the envelope of
 * docs/api/webhooks.md#refund-events (`id`, `event`, `created_at`, `data`) with the refund as `data`. `data` starts with
 * the refund result of docs/api/refunds.md (`refund_id`, `refunded_amount`, `automated_refund`, and
 * `epg_error_message` only when the refund was not automated), then the refund's other facts.
 * `resolved_at` (when operations settled it, the event time) is there only for a refund settled
 * by hand, like `epg_error_message`. Amounts stay the decimal strings they were; `metadata` is
 * the merchant's stored JSON text spliced in unchanged.
 */
export function buildRefundEnvelope(facts: RefundEventFacts): { body: string; warning: EnvelopeWarning } {
  const warning: EnvelopeWarning = { metadataUnreadable: false };
  const r = facts.refund;
  const manual = !r.automated;
  const data: Record<string, JsonOutput> = {
    refund_id: r.id,
    refunded_amount: r.amount,
    automated_refund: r.automated,
    ...(manual ? { epg_error_message: r.acquirerErrorMessage ?? "" } : {}),
    session_id: r.sessionId,
    merchant_reference: facts.session.merchantReference,
    order_number: facts.session.orderNumber,
    status: r.status,
    refund_type: r.type,
    currency: r.currency,
    reason: orNull(r.reason),
    metadata: metadataValue(r.metadataJson, warning),
    created_at: r.createdAt.toISOString(),
    ...(manual ? { resolved_at: facts.occurredAt.toISOString() } : {}),
  };
  const envelope: JsonOutput = {
    id: facts.eventId,
    event: facts.eventType,
    created_at: facts.occurredAt.toISOString(),
    data,
  };
  return { body: stringifyWithRaw(envelope), warning };
}
