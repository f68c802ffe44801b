import {
  type EventBus,
  type EventOutcome,
  type EventSubscription,
  GatewayError,
  type Logger,
  type ReceivedEvent,
} from "@gateway/platform";
import type { RecordedEvent } from "../../app/record-event.js";
import type { RefundEventFacts, SessionEventFacts } from "../../domain/webhook-event.js";
import { decodeRefundEvent } from "./refund-event-from-proto.js";
import { type DecodedEvent, decodeSessionEvent } from "./session-event-from-proto.js";

export const DEFAULT_EVENTS_SUBJECT_PREFIX = "gateway.events";
export const DEFAULT_WEBHOOKS_DURABLE = "webhooks";

/** The subjects carrying events merchants get webhooks for: session events, then refund events. */
export function webhookEventSubjects(prefix = DEFAULT_EVENTS_SUBJECT_PREFIX): string[] {
  return [`${prefix}.session.*`, `${prefix}.checkout.session.expired`, `${prefix}.refund.*`];
}

const TRACE_HEADERS = ["traceparent", "tracestate"];

/** The W3C trace context among an event's headers. */
function traceHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (TRACE_HEADERS.includes(name.toLowerCase())) out[name.toLowerCase()] = value;
  return out;
}

/** Redelivery delay when the store is unreachable. */
const UNAVAILABLE_RETRY_MS = 5_000;
/**
 * Redelivery delay of an event we cannot turn into a webhook (a producer or consumer bug). It is
 * never dropped: once the bug is fixed and deployed, the next redelivery goes through.
 */
const MALFORMED_RETRY_MS = 5 * 60_000;

export interface GatewayEventConsumerOptions {
  bus: EventBus;
  logger: Logger;
  /** Stores a session event; `traceContext` is the publisher's W3C trace headers. */
  recordSession: (facts: SessionEventFacts, traceContext: Record<string, string>) => Promise<RecordedEvent>;
  /** Stores a refund event, the same way. */
  recordRefund: (facts: RefundEventFacts, traceContext: Record<string, string>) => Promise<RecordedEvent>;
  /** Called with what storing each event did (its first attempt, when queued now). */
  onRecorded?: (recorded: RecordedEvent) => void;
  subjectPrefix?: string;
  durable?: string;
  concurrency?: number;
}

type Decoded = DecodedEvent<
  { kind: "session"; facts: SessionEventFacts } | { kind: "refund"; facts: RefundEventFacts }
>;

/** Refund events travel on `<prefix>.refund.*` as RefundEvent; everything else is a SessionEvent. */
function decode(received: ReceivedEvent, prefix: string): Decoded {
  const refund = received.subject.startsWith(`${prefix}.refund.`);
  const decoded = refund ? decodeRefundEvent(received.data) : decodeSessionEvent(received.data);
  if (decoded.kind !== "event") return decoded;
  return {
    kind: "event",
    facts: refund
      ? { kind: "refund", facts: decoded.facts as RefundEventFacts }
      : { kind: "session", facts: decoded.facts as SessionEventFacts },
  };
}

/**
 * The durable, explicit-ack consumer of the events merchants get webhooks for (session and
 * refund events): each event is stored (idempotently, on its id) with its first attempt queued,
 * then acknowledged. A failure to store is a redelivery later, never an acknowledgement.
 */
export function subscribeToGatewayEvents(o: GatewayEventConsumerOptions): Promise<EventSubscription> {
  const prefix = o.subjectPrefix ?? DEFAULT_EVENTS_SUBJECT_PREFIX;
  const handler = async (received: ReceivedEvent): Promise<EventOutcome> => {
    const decoded = decode(received, prefix);
    const about = {
      messageId: received.id,
      subject: received.subject,
      deliveryCount: received.deliveryCount,
    };
    if (decoded.kind === "malformed") {
      o.logger.error(
        { ...about, problem: decoded.problem },
        "event cannot be turned into a webhook; it will be redelivered",
      );
      return { retryAfterMs: MALFORMED_RETRY_MS };
    }
    if (decoded.kind === "no_webhook") {
      o.logger.warn(
        { ...about, eventId: decoded.eventId, eventType: decoded.eventType },
        "no webhook is defined for this event type; skipped",
      );
      return "ack";
    }
    const { facts } = decoded;
    const eventId = facts.facts.eventId;
    try {
      const trace = traceHeaders(received.headers);
      const recorded =
        facts.kind === "refund"
          ? await o.recordRefund(facts.facts, trace)
          : await o.recordSession(facts.facts, trace);
      if (recorded.metadataUnreadable) {
        o.logger.error(
          { ...about, eventId },
          "stored metadata is not a JSON object; the webhook carries metadata: null",
        );
      }
      o.onRecorded?.(recorded);
      return "ack";
    } catch (err) {
      const unavailable = err instanceof GatewayError && err.reason === "SERVICE_UNAVAILABLE";
      o.logger[unavailable ? "warn" : "error"](
        { ...about, err, eventId },
        "could not store an event; it will be redelivered",
      );
      return { retryAfterMs: UNAVAILABLE_RETRY_MS };
    }
  };
  return o.bus.subscribe({
    durable: o.durable ?? DEFAULT_WEBHOOKS_DURABLE,
    subjects: webhookEventSubjects(prefix),
    handler,
    concurrency: o.concurrency ?? 8,
  });
}
