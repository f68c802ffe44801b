import { buildEnvelope } from "../domain/envelope.js";
import type { SessionEventFacts } from "../domain/webhook-event.js";
import { type RecordEventDeps, type RecordedEvent, recordWebhookEvent } from "./record-event.js";

export { firstAttemptId, type RecordedEvent } from "./record-event.js";

/**
 * Takes in a session event: builds its envelope bytes once, stores the event and queues its
 * first attempt, idempotently on the event id (see recordWebhookEvent).
 */
export async function recordSessionEvent(
  deps: RecordEventDeps,
  facts: SessionEventFacts,
  traceContext?: Record<string, string>,
): Promise<RecordedEvent> {
  const { body, warning } = buildEnvelope(facts);
  const { firstTime, queued } = await recordWebhookEvent(
    deps,
    {
      id: facts.eventId,
      scope: facts.session.scope,
      sessionId: facts.session.id,
      type: facts.eventType,
      sequence: facts.sequence,
      occurredAt: facts.occurredAt,
      ...(facts.session.webhookUrl ? { sessionWebhookUrl: facts.session.webhookUrl } : {}),
      body,
    },
    traceContext,
  );
  return { firstTime, metadataUnreadable: warning.metadataUnreadable, ...(queued ? { queued } : {}) };
}
