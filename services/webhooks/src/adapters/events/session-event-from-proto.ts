import { fromBinary } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { type SessionEvent, SessionEventSchema, SessionStatus } from "@gateway/proto";
import { isSessionWebhookEventType } from "../../domain/event-types.js";
import type { EventSession, SessionEventFacts } from "../../domain/webhook-event.js";

/** A decoded event payload of any kind (session or refund facts). */
export type DecodedEvent<Facts> =
  | { kind: "event"; facts: Facts }
  /** A well-formed event of a type no webhook exists for: acknowledged and skipped. */
  | { kind: "no_webhook"; eventType: string; eventId: string }
  /** The payload cannot be turned into a webhook; `problem` says why (never data). */
  | { kind: "malformed"; problem: string };

export type DecodedSessionEvent = DecodedEvent<SessionEventFacts>;

const text = (value: string): string | undefined => (value === "" ? undefined : value);
const date = (ts: Timestamp | undefined): Date | undefined => (ts ? timestampDate(ts) : undefined);

function sessionFrom(event: SessionEvent): EventSession | string {
  const s = event.session;
  if (!s) return "the event has no session";
  if (!s.scope || s.scope.merchantId === "") return "the session has no account scope";
  if (s.id === "") return "the session has no id";
  if (s.status === SessionStatus.UNSPECIFIED) return "the session has no status";
  return {
    id: s.id,
    scope: { merchantId: s.scope.merchantId, livemode: s.scope.livemode },
    merchantReference: s.merchantReference,
    orderNumber: s.orderNumber,
    orderId: text(s.orderId),
    amount: s.amount,
    currency: s.currency,
    description: text(s.description),
    status: SessionStatus[s.status] ?? String(s.status),
    buyer: {
      firstName: text(s.buyerFirstName),
      lastName: text(s.buyerLastName),
      email: text(s.buyerEmail),
      phone: text(s.buyerPhone),
    },
    items: s.items.map((item) => ({
      name: item.name,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      description: text(item.description),
    })),
    metadataJson: text(s.metadataJson),
    webhookUrl: text(s.webhookUrl),
    completedAt: date(s.completedAt),
  };
}

/** Turns a `gateway.events.v1.SessionEvent` payload into the facts a webhook is built from. */
export function decodeSessionEvent(data: Uint8Array): DecodedSessionEvent {
  let event: SessionEvent;
  try {
    event = fromBinary(SessionEventSchema, data);
  } catch {
    return { kind: "malformed", problem: "the payload is not a gateway.events.v1.SessionEvent" };
  }
  if (event.eventId === "") return { kind: "malformed", problem: "the event has no event_id" };
  if (!isSessionWebhookEventType(event.eventType))
    return { kind: "no_webhook", eventType: event.eventType, eventId: event.eventId };
  const occurredAt = date(event.occurredAt);
  if (!occurredAt) return { kind: "malformed", problem: "the event has no occurred_at" };
  const session = sessionFrom(event);
  if (typeof session === "string") return { kind: "malformed", problem: session };
  const facts: SessionEventFacts = {
    eventId: event.eventId,
    eventType: event.eventType,
    sequence: Number(event.sequence),
    occurredAt,
    session,
  };

  if (event.eventType === "session.succeeded") {
    const p = event.payment;
    if (!p) return { kind: "malformed", problem: "a session.succeeded event has no payment" };
    facts.payment = {
      paidAt: date(p.paidAt) ?? session.completedAt ?? occurredAt,
      method: p.method || "card",
      cardBrand: text(p.cardBrand),
      cardLastFour: text(p.cardLastFour),
      cardCountry: text(p.cardCountry),
      feeAmount: text(p.feeAmount),
      netAmount: text(p.netAmount),
    };
  }
  if (event.eventType === "session.failed") {
    const f = event.failure;
    if (!f) return { kind: "malformed", problem: "a session.failed event has no failure" };
    facts.failure = {
      lastFailureCode: text(f.lastFailureCode),
      lastFailureMessage: text(f.lastFailureMessage),
      attemptsCount: f.attemptsCount,
      canRetry: f.canRetry,
    };
  }
  if (event.eventType === "session.late_payment_returned") {
    const l = event.latePayment;
    if (!l)
      return { kind: "malformed", problem: "a session.late_payment_returned event has no late_payment" };
    if (l.attemptId === "" || l.amount === "")
      return { kind: "malformed", problem: "the late payment has no attempt id or amount" };
    facts.latePayment = {
      attemptId: l.attemptId,
      amount: l.amount,
      currency: l.currency || session.currency,
      cardBrand: text(l.cardBrand),
      cardLastFour: text(l.cardLastFour),
      approvedAt: date(l.approvedAt),
      returnedAt: date(l.returnedAt),
      method: l.method,
      reason: l.reason,
    };
  }
  return { kind: "event", facts };
}
