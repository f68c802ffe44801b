import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId } from "@gateway/platform";
import {
  AttemptStatus,
  PaymentAttemptSchema,
  SessionEventSchema,
  SessionSchema,
  SessionStatus,
} from "@gateway/proto";
import type { AccountScope } from "../../src/domain/refund.js";

export interface PaidSessionFacts {
  scope: AccountScope;
  sessionId: string;
  amount: string;
  currency: string;
  acquirerOrderId: string;
  webhookUrl?: string;
}

/** A session.succeeded event as the sessions relay publishes it: a gateway.events.v1.SessionEvent. */
export function sessionSucceededBytes(
  f: PaidSessionFacts,
  o: { eventId?: string; eventType?: string; status?: SessionStatus } = {},
): Uint8Array {
  return toBinary(
    SessionEventSchema,
    create(SessionEventSchema, {
      eventId: o.eventId ?? newId("evt"),
      eventType: o.eventType ?? "session.succeeded",
      sequence: 1n,
      occurredAt: timestampFromDate(new Date(Date.UTC(2026, 0, 5))),
      session: create(SessionSchema, {
        id: f.sessionId,
        scope: f.scope,
        merchantReference: `order-${f.sessionId}`,
        orderNumber: "GW-EVT001",
        amount: f.amount,
        currency: f.currency,
        status: o.status ?? SessionStatus.SUCCEEDED,
        webhookUrl: f.webhookUrl ?? "",
        attempts: [
          create(PaymentAttemptSchema, {
            id: "pa_declined",
            status: AttemptStatus.FAILED,
            acquirerOrderId: "ord-declined",
          }),
          create(PaymentAttemptSchema, {
            id: "pa_paid",
            status: AttemptStatus.SUCCEEDED,
            acquirerOrderId: f.acquirerOrderId,
          }),
        ],
      }),
    }),
  );
}
