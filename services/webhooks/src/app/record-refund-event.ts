import { buildRefundEnvelope } from "../domain/refund-envelope.js";
import type { RefundEventFacts } from "../domain/webhook-event.js";
import { type RecordEventDeps, type RecordedEvent, recordWebhookEvent } from "./record-event.js";

/**
 * Takes in a refund event exactly as a session event: envelope bytes built once, stored with
 * its first attempt, idempotently on the event id. It goes where the refunded session's events
 * go (its webhook_url, else the account's endpoint) and is listed with the session's deliveries.
 */
export async function recordRefundEvent(
  deps: RecordEventDeps,
  facts: RefundEventFacts,
  traceContext?: Record<string, string>,
): Promise<RecordedEvent> {
  const { body, warning } = buildRefundEnvelope(facts);
  const { firstTime, queued } = await recordWebhookEvent(
    deps,
    {
      id: facts.eventId,
      scope: facts.refund.scope,
      sessionId: facts.refund.sessionId,
      type: facts.eventType,
      occurredAt: facts.occurredAt,
      ...(facts.session.webhookUrl ? { sessionWebhookUrl: facts.session.webhookUrl } : {}),
      body,
    },
    traceContext,
  );
  return { firstTime, metadataUnreadable: warning.metadataUnreadable, ...(queued ? { queued } : {}) };
}
