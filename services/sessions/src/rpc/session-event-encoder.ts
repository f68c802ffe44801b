import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { fromMinorUnits } from "@gateway/money";
import { FailureInfoSchema, PaymentInfoSchema, SessionEventSchema } from "@gateway/proto";
import { context, propagation } from "@opentelemetry/api";
import type { SessionEventEncoder } from "../app/ports.js";
import type { SessionEvent } from "../domain/session-events.js";
import type { Session } from "../domain/session.js";
import { sessionToProto } from "./session-to-proto.js";

/** The wire form of an event: gateway.events.v1.SessionEvent, amounts as decimal strings. */
export function sessionEventToProto(event: SessionEvent, session: Session, publicBaseUrl: string) {
  return create(SessionEventSchema, {
    eventId: event.eventId,
    eventType: event.type,
    sequence: BigInt(event.sequence),
    occurredAt: timestampFromDate(event.occurredAt),
    session: sessionToProto(session, publicBaseUrl),
    ...(event.type === "session.succeeded"
      ? {
          payment: create(PaymentInfoSchema, {
            paidAt: timestampFromDate(event.payment.paidAt),
            method: event.payment.method,
            cardBrand: event.payment.cardBrand,
            cardLastFour: event.payment.cardLastFour,
            cardCountry: event.payment.cardCountry ?? "",
            feeAmount: fromMinorUnits(event.payment.feeMinor, session.currency),
            netAmount: fromMinorUnits(event.payment.netMinor, session.currency),
          }),
        }
      : {
          failure: create(FailureInfoSchema, {
            lastFailureCode: event.failure.lastFailureCode,
            lastFailureMessage: event.failure.lastFailureMessage,
            attemptsCount: event.failure.attemptsCount,
            canRetry: event.failure.canRetry,
          }),
        }),
  });
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
      return { payload: toBinary(SessionEventSchema, sessionEventToProto(event, session, publicBaseUrl)), headers };
    },
  };
}
