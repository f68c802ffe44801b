import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { fromMinorUnits } from "@gateway/money";
import {
  FailureInfoSchema,
  LatePaymentInfoSchema,
  PaymentInfoSchema,
  SessionEventSchema,
} from "@gateway/proto";
import { context, propagation } from "@opentelemetry/api";
import type { SessionEventEncoder } from "../app/ports.js";
import type { Session } from "../domain/session.js";
import type { SessionEvent } from "../domain/session-events.js";
import { sessionToProto } from "./session-to-proto.js";

/** The wire form of an event: gateway.events.v1.SessionEvent, amounts as decimal strings. */
export function sessionEventToProto(event: SessionEvent, session: Session, publicBaseUrl: string) {
  return create(SessionEventSchema, {
    eventId: event.eventId,
    eventType: event.type,
    sequence: BigInt(event.sequence),
    occurredAt: timestampFromDate(event.occurredAt),
    session: sessionToProto(session, publicBaseUrl),
    ...eventFacts(event, session.currency),
  });
}

/** The members only some event types carry. */
function eventFacts(event: SessionEvent, currency: string) {
  switch (event.type) {
    case "session.succeeded":
      return {
        payment: create(PaymentInfoSchema, {
          paidAt: timestampFromDate(event.payment.paidAt),
          method: event.payment.method,
          cardBrand: event.payment.cardBrand,
          cardLastFour: event.payment.cardLastFour,
          cardCountry: event.payment.cardCountry ?? "",
          feeAmount: fromMinorUnits(event.payment.feeMinor, currency),
          netAmount: fromMinorUnits(event.payment.netMinor, currency),
        }),
      };
    case "session.failed":
      return {
        failure: create(FailureInfoSchema, {
          lastFailureCode: event.failure.lastFailureCode,
          lastFailureMessage: event.failure.lastFailureMessage,
          attemptsCount: event.failure.attemptsCount,
          canRetry: event.failure.canRetry,
        }),
      };
    case "session.late_payment_returned": {
      const late = event.latePayment;
      return {
        latePayment: create(LatePaymentInfoSchema, {
          attemptId: late.attemptId,
          amount: fromMinorUnits(late.amountMinor, currency),
          currency,
          cardBrand: late.cardBrand,
          cardLastFour: late.cardLastFour,
          approvedAt: timestampFromDate(late.approvedAt),
          returnedAt: timestampFromDate(late.returnedAt),
          method: late.method,
          reason: late.reason,
        }),
      };
    }
    case "session.expired":
    case "checkout.session.expired":
      // The session itself says it all (status, completed_at; the event's time for the link).
      return {};
  }
}

/**
 * Encodes events as protobuf bytes for the outbox, with the W3C trace context of the change
 * as headers, so the relay publishes them inside the payment's trace.
 */
export function createProtoSessionEventEncoder(publicBaseUrl: string): SessionEventEncoder {
  return {
    encode(event, session) {
      const headers: Record<string, string> = {};
      propagation.inject(context.active(), headers);
      return {
        payload: toBinary(SessionEventSchema, sessionEventToProto(event, session, publicBaseUrl)),
        headers,
      };
    },
  };
}
