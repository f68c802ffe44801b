import { GatewayError, type EventBus, type EventOutcome, type EventSubscription, type Logger, type ReceivedEvent } from "@gateway/platform";
import type { SessionEventFacts } from "../../domain/webhook-event.js";
import type { RecordedEvent } from "../../app/record-session-event.js";
import { decodeSessionEvent } from "./session-event-from-proto.js";

export const DEFAULT_EVENTS_SUBJECT_PREFIX = "gateway.events";
export const DEFAULT_WEBHOOKS_DURABLE = "webhooks";

/** The subjects carrying events merchants get webhooks for. */
export function webhookEventSubjects(prefix = DEFAULT_EVENTS_SUBJECT_PREFIX): string[] {
  return [`${prefix}.session.*`, `${prefix}.checkout.session.expired`];
}

const TRACE_HEADERS = ["traceparent", "tracestate"];

/** The W3C trace context among an event's headers. */
function traceHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (TRACE_HEADERS.includes(name.toLowerCase())) out[name.toLowerCase()] = value;
  return out;
}

/** Redelivery delay when the store is unreachable. */
const UNAVAILABLE_RETRY_MS = 5_000;
/**
 * Redelivery delay of an event we cannot turn into a webhook (a producer or consumer bug). It is
 * never dropped: once the bug is fixed and deployed, the next redelivery goes through.
 */
const MALFORMED_RETRY_MS = 5 * 60_000;

export interface SessionEventConsumerOptions {
  bus: EventBus;
  logger: Logger;
  /** Stores the event; `traceContext` is the publisher's W3C trace headers. */
  record: (facts: SessionEventFacts, traceContext: Record<string, string>) => Promise<RecordedEvent>;
  /** Called once an event's first attempt is queued. */
  onRecorded?: () => void;
  subjectPrefix?: string;
  durable?: string;
  concurrency?: number;
}

/**
 * The durable, explicit-ack consumer of session events: each event is stored (idempotently, on
 * its id) with its first attempt queued, then acknowledged. A failure to store is a redelivery
 * later, never an acknowledgement.
 */
export function subscribeToSessionEvents(o: SessionEventConsumerOptions): Promise<EventSubscription> {
  const handler = async (received: ReceivedEvent): Promise<EventOutcome> => {
    const decoded = decodeSessionEvent(received.data);
    const about = { messageId: received.id, subject: received.subject, deliveryCount: received.deliveryCount };
    if (decoded.kind === "malformed") {
      o.logger.error({ ...about, problem: decoded.problem }, "session event cannot be turned into a webhook; it will be redelivered");
      return { retryAfterMs: MALFORMED_RETRY_MS };
    }
    if (decoded.kind === "no_webhook") {
      o.logger.warn({ ...about, eventId: decoded.eventId, eventType: decoded.eventType }, "no webhook is defined for this event type; skipped");
      return "ack";
    }
    try {
      const recorded = await o.record(decoded.facts, traceHeaders(received.headers));
      if (recorded.metadataUnreadable) {
        o.logger.error({ ...about, eventId: decoded.facts.eventId }, "session metadata is not a JSON object; the webhook carries metadata: null");
      }
      o.onRecorded?.();
      return "ack";
    } catch (err) {
      const unavailable = err instanceof GatewayError && err.reason === "SERVICE_UNAVAILABLE";
      o.logger[unavailable ? "warn" : "error"]({ ...about, err, eventId: decoded.facts.eventId }, "could not store a session event; it will be redelivered");
      return { retryAfterMs: UNAVAILABLE_RETRY_MS };
    }
  };
  return o.bus.subscribe({
    durable: o.durable ?? DEFAULT_WEBHOOKS_DURABLE,
    subjects: webhookEventSubjects(o.subjectPrefix),
    handler,
    concurrency: o.concurrency ?? 8,
  });
}
