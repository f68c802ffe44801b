import { fromBinary } from "@bufbuild/protobuf";
import {
  type Clock,
  type EventBus,
  type EventOutcome,
  type EventSubscription,
  GatewayError,
  type Logger,
  type ReceivedEvent,
} from "@gateway/platform";
import { type SessionEvent, SessionEventSchema } from "@gateway/proto";
import type { PaidSessionRecord } from "../../domain/paid-session-record.js";
import { paidSessionFromProto } from "../sessions/paid-session-from-proto.js";

export const DEFAULT_REFUNDS_DURABLE = "refunds";

/** Redelivery delay when the store is unreachable. */
const UNAVAILABLE_RETRY_MS = 5_000;
/**
 * Redelivery delay of an event we cannot read (a producer or consumer bug). It is never
 * dropped: once the bug is fixed and deployed, the next redelivery goes through.
 */
const MALFORMED_RETRY_MS = 5 * 60_000;

export type DecodedPaidSession =
  | { kind: "paid"; record: PaidSessionRecord }
  | { kind: "malformed"; problem: string };

/** What a `gateway.events.v1.SessionEvent` of type session.succeeded says the session was paid. */
export function decodePaidSession(data: Uint8Array, recordedAt: Date): DecodedPaidSession {
  let event: SessionEvent;
  try {
    event = fromBinary(SessionEventSchema, data);
  } catch {
    return { kind: "malformed", problem: "the payload is not a gateway.events.v1.SessionEvent" };
  }
  if (event.eventType !== "session.succeeded")
    return {
      kind: "malformed",
      problem: `a ${event.eventType || "typeless"} event on the session.succeeded subject`,
    };
  const session = event.session;
  if (!session || session.id === "") return { kind: "malformed", problem: "the event has no session" };
  if (!session.scope || session.scope.merchantId === "")
    return { kind: "malformed", problem: "the session has no account scope" };
  const paid = paidSessionFromProto(session);
  if (paid === undefined) return { kind: "malformed", problem: "the session amount is malformed" };
  if (paid.status !== "SUCCEEDED")
    return { kind: "malformed", problem: `the session is ${paid.status}, not SUCCEEDED` };
  if (paid.acquirerOrderId === undefined)
    return { kind: "malformed", problem: "the session has no successful attempt with an acquirer order" };
  return {
    kind: "paid",
    record: {
      scope: { merchantId: session.scope.merchantId, livemode: session.scope.livemode },
      sessionId: session.id,
      amountMinor: paid.amountMinor,
      currency: paid.currency,
      acquirerOrderId: paid.acquirerOrderId,
      merchantReference: paid.merchantReference,
      orderNumber: paid.orderNumber,
      webhookUrl: paid.webhookUrl,
      source: "session_event",
      recordedAt,
    },
  };
}

export interface SessionSucceededConsumerOptions {
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Records the payment (idempotently). */
  learn: (record: PaidSessionRecord) => Promise<void>;
  /** Subjects are `<prefix>.session.succeeded`; default "gateway.events". */
  subjectPrefix?: string;
  /** Durable consumer name; default "refunds" (replicas share it). */
  durable?: string;
}

/**
 * The durable, explicit-ack consumer of session.succeeded events: each paid session's amount is
 * recorded, then the event acknowledged. A failure to record is a redelivery later, never an
 * acknowledgement.
 */
export function subscribeToPaidSessions(o: SessionSucceededConsumerOptions): Promise<EventSubscription> {
  const handler = async (received: ReceivedEvent): Promise<EventOutcome> => {
    const about = {
      messageId: received.id,
      subject: received.subject,
      deliveryCount: received.deliveryCount,
    };
    const decoded = decodePaidSession(received.data, o.clock.now());
    if (decoded.kind === "malformed") {
      o.logger.error(
        { ...about, problem: decoded.problem },
        "session.succeeded event cannot be read; it will be redelivered",
      );
      return { retryAfterMs: MALFORMED_RETRY_MS };
    }
    try {
      await o.learn(decoded.record);
      return "ack";
    } catch (err) {
      const unavailable = err instanceof GatewayError && err.reason === "SERVICE_UNAVAILABLE";
      o.logger[unavailable ? "warn" : "error"](
        { ...about, err, sessionId: decoded.record.sessionId },
        "could not record a paid session; it will be redelivered",
      );
      return { retryAfterMs: UNAVAILABLE_RETRY_MS };
    }
  };
  return o.bus.subscribe({
    durable: o.durable ?? DEFAULT_REFUNDS_DURABLE,
    subjects: [`${o.subjectPrefix ?? "gateway.events"}.session.succeeded`],
    handler,
    concurrency: 4,
  });
}
