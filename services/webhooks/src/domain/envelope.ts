import { type JsonOutput, RawJson, stringifyWithRaw } from "@gateway/platform";
import type { EventSession, SessionEventFacts } from "./webhook-event.js";

/** The metadata could not be spliced; the envelope carries null instead and the caller logs it. */
export interface EnvelopeWarning {
  metadataUnreadable: boolean;
}

const PAYABLE_STATUSES = new Set(["CREATED", "PENDING", "PROCESSING"]);

export const orNull = (value: string | undefined): string | null =>
  value === undefined || value === "" ? null : value;
const dateOrNull = (value: Date | undefined): string | null =>
  value === undefined ? null : value.toISOString();

/** The stored metadata text, spliced verbatim when it is a JSON object; null otherwise. */
export function metadataValue(text: string | undefined, warning: EnvelopeWarning): JsonOutput {
  if (text === undefined || text.trim() === "") return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      return new RawJson(text.trim());
  } catch {
    // Falls through: corrupt text must not make the whole body invalid JSON.
  }
  warning.metadataUnreadable = true;
  return null;
}

/** The `data` members every event carries, in the order of docs/api/webhooks.md#session-event-data. */
function sessionData(s: EventSession, warning: EnvelopeWarning): Record<string, JsonOutput> {
  return {
    id: s.id,
    order_number: s.orderNumber,
    merchant_reference: s.merchantReference,
    order_id: orNull(s.orderId),
    amount: s.amount,
    currency: s.currency,
    description: orNull(s.description),
    status: s.status,
    buyer: {
      first_name: orNull(s.buyer.firstName),
      last_name: orNull(s.buyer.lastName),
      email: orNull(s.buyer.email),
      phone: orNull(s.buyer.phone),
    },
    items: s.items.map((item) => ({
      name: item.name,
      quantity: item.quantity,
      unit_price: item.unitPrice,
      description: orNull(item.description),
    })),
    metadata: metadataValue(s.metadataJson, warning),
  };
}

/**
 * The members each event type adds (docs/api/webhooks.md#session-event-data; the expired events' members are our decision,
 * see the service README): session.succeeded `paid_at`, `payment`; session.failed the failure
 * figures; session.expired `expired_at`; checkout.session.expired `checkout_expired_at` and
 * `session_still_payable`; session.late_payment_returned `late_payment`.
 */
function eventSpecificData(facts: SessionEventFacts): Record<string, JsonOutput> {
  switch (facts.eventType) {
    case "session.succeeded": {
      const p = facts.payment;
      if (!p) throw new Error("a session.succeeded event needs its payment facts");
      return {
        paid_at: p.paidAt.toISOString(),
        payment: {
          method: p.method,
          card_brand: orNull(p.cardBrand),
          card_last_four: orNull(p.cardLastFour),
          card_country: orNull(p.cardCountry),
          fee_amount: orNull(p.feeAmount),
          net_amount: orNull(p.netAmount),
        },
      };
    }
    case "session.failed": {
      const f = facts.failure;
      if (!f) throw new Error("a session.failed event needs its failure facts");
      return {
        last_failure_code: orNull(f.lastFailureCode),
        last_failure_message: orNull(f.lastFailureMessage),
        attempts_count: f.attemptsCount,
        can_retry: f.canRetry,
      };
    }
    case "session.expired":
      return { expired_at: (facts.session.completedAt ?? facts.occurredAt).toISOString() };
    case "checkout.session.expired":
      return {
        checkout_expired_at: facts.occurredAt.toISOString(),
        session_still_payable: PAYABLE_STATUSES.has(facts.session.status),
      };
    case "session.late_payment_returned": {
      const l = facts.latePayment;
      if (!l) throw new Error("a session.late_payment_returned event needs its late payment facts");
      return {
        late_payment: {
          attempt_id: l.attemptId,
          amount: l.amount,
          currency: l.currency,
          card_brand: orNull(l.cardBrand),
          card_last_four: orNull(l.cardLastFour),
          approved_at: dateOrNull(l.approvedAt),
          returned_at: dateOrNull(l.returnedAt),
          method: l.method,
          reason: l.reason,
        },
      };
    }
  }
}

/**
 * The webhook body (docs/api/webhooks.md#the-event-body) as its exact JSON text, with `sequence` (the
 * per-session order of events, so a receiver can ignore one older than what it already has).
 * Amounts stay the decimal strings they were; `data.metadata` is the merchant's stored JSON
 * text spliced in unchanged.
 */
export function buildEnvelope(facts: SessionEventFacts): { body: string; warning: EnvelopeWarning } {
  const warning: EnvelopeWarning = { metadataUnreadable: false };
  const envelope: JsonOutput = {
    id: facts.eventId,
    event: facts.eventType,
    created_at: facts.occurredAt.toISOString(),
    sequence: facts.sequence,
    data: { ...sessionData(facts.session, warning), ...eventSpecificData(facts) },
  };
  return { body: stringifyWithRaw(envelope), warning };
}
