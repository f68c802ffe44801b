import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId, randomBase62 } from "@gateway/platform";
import {
  AccountScopeSchema,
  FailureInfoSchema,
  LatePaymentInfoSchema,
  LineItemSchema,
  PaymentInfoSchema,
  RefundEventSchema,
  RefundSchema,
  RefundStatus,
  RefundType,
  type SessionEvent,
  SessionEventSchema,
  SessionSchema,
  SessionStatus,
} from "@gateway/proto";
import type { AccountScope } from "../../src/domain/account-scope.js";
import type { RefundWebhookEventType, SessionWebhookEventType } from "../../src/domain/event-types.js";
import type { RefundEventFacts, SessionEventFacts } from "../../src/domain/webhook-event.js";

export const METADATA = '{"a.b":{"$c":[[1,2],[3]]},"n":1.50,"é":"😀"}';

export function newScope(livemode = false): AccountScope {
  return { merchantId: `mer_${randomBase62(16)}`, livemode };
}

/** Facts of one event of a session with every optional field set. */
export function eventFacts(
  type: SessionWebhookEventType,
  o: {
    scope?: AccountScope;
    sessionId?: string;
    eventId?: string;
    sequence?: number;
    occurredAt?: Date;
    webhookUrl?: string;
    metadataJson?: string;
  } = {},
): SessionEventFacts {
  const occurredAt = o.occurredAt ?? new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
  const status = {
    "session.succeeded": "SUCCEEDED",
    "session.failed": "PENDING",
    "session.expired": "EXPIRED",
    "checkout.session.expired": "PENDING",
    "session.late_payment_returned": "EXPIRED",
  }[type];
  const facts: SessionEventFacts = {
    eventId: o.eventId ?? newId("evt"),
    eventType: type,
    sequence: o.sequence ?? 2,
    occurredAt,
    session: {
      id: o.sessionId ?? newId("ps"),
      scope: o.scope ?? newScope(),
      merchantReference: "order-42",
      orderNumber: "GW-ABC123",
      orderId: "A-42",
      amount: "34.000",
      currency: "TND",
      description: "Two mugs",
      status,
      buyer: { firstName: "Émile", lastName: "بن علي", email: "emile@example.tn", phone: "+216 71 000 000" },
      items: [{ name: "Mug", quantity: 2, unitPrice: "5.00", description: "Blue" }],
      metadataJson: o.metadataJson ?? METADATA,
      ...(o.webhookUrl ? { webhookUrl: o.webhookUrl } : {}),
      ...(type === "session.succeeded" || type === "session.expired" ? { completedAt: occurredAt } : {}),
    },
  };
  if (type === "session.succeeded") {
    facts.payment = {
      paidAt: occurredAt,
      method: "card",
      cardBrand: "visa",
      cardLastFour: "4242",
      cardCountry: "TN",
      feeAmount: "0.850",
      netAmount: "33.150",
    };
  }
  if (type === "session.failed") {
    facts.failure = {
      lastFailureCode: "card_declined",
      lastFailureMessage: "The card was declined.",
      attemptsCount: 1,
      canRetry: true,
    };
  }
  if (type === "session.late_payment_returned") {
    facts.latePayment = {
      attemptId: "pa_late01",
      amount: "34.000",
      currency: "TND",
      cardBrand: "mastercard",
      cardLastFour: "5454",
      approvedAt: new Date(occurredAt.getTime() - 60_000),
      returnedAt: occurredAt,
      method: "reversal",
      reason: "session_expired",
    };
  }
  return facts;
}

/** The same event as the sessions relay publishes it: a gateway.events.v1.SessionEvent. */
export function sessionEventProto(facts: SessionEventFacts): SessionEvent {
  const s = facts.session;
  return create(SessionEventSchema, {
    eventId: facts.eventId,
    eventType: facts.eventType,
    sequence: BigInt(facts.sequence),
    occurredAt: timestampFromDate(facts.occurredAt),
    session: create(SessionSchema, {
      id: s.id,
      scope: create(AccountScopeSchema, s.scope),
      merchantReference: s.merchantReference,
      orderNumber: s.orderNumber,
      orderId: s.orderId ?? "",
      amount: s.amount,
      currency: s.currency,
      description: s.description ?? "",
      items: s.items.map((i) =>
        create(LineItemSchema, {
          name: i.name,
          quantity: i.quantity,
          unitPrice: i.unitPrice,
          description: i.description ?? "",
        }),
      ),
      status: SessionStatus[s.status as keyof typeof SessionStatus],
      buyerFirstName: s.buyer.firstName ?? "",
      buyerLastName: s.buyer.lastName ?? "",
      buyerEmail: s.buyer.email ?? "",
      buyerPhone: s.buyer.phone ?? "",
      metadataJson: s.metadataJson ?? "",
      webhookUrl: s.webhookUrl ?? "",
      ...(s.completedAt ? { completedAt: timestampFromDate(s.completedAt) } : {}),
    }),
    ...(facts.payment
      ? {
          payment: create(PaymentInfoSchema, {
            paidAt: timestampFromDate(facts.payment.paidAt),
            method: facts.payment.method,
            cardBrand: facts.payment.cardBrand ?? "",
            cardLastFour: facts.payment.cardLastFour ?? "",
            cardCountry: facts.payment.cardCountry ?? "",
            feeAmount: facts.payment.feeAmount ?? "",
            netAmount: facts.payment.netAmount ?? "",
          }),
        }
      : {}),
    ...(facts.failure ? { failure: create(FailureInfoSchema, facts.failure) } : {}),
    ...(facts.latePayment
      ? {
          latePayment: create(LatePaymentInfoSchema, {
            attemptId: facts.latePayment.attemptId,
            amount: facts.latePayment.amount,
            currency: facts.latePayment.currency,
            cardBrand: facts.latePayment.cardBrand ?? "",
            cardLastFour: facts.latePayment.cardLastFour ?? "",
            ...(facts.latePayment.approvedAt
              ? { approvedAt: timestampFromDate(facts.latePayment.approvedAt) }
              : {}),
            ...(facts.latePayment.returnedAt
              ? { returnedAt: timestampFromDate(facts.latePayment.returnedAt) }
              : {}),
            method: facts.latePayment.method,
            reason: facts.latePayment.reason,
          }),
        }
      : {}),
  });
}

export function sessionEventBytes(facts: SessionEventFacts): Uint8Array {
  return toBinary(SessionEventSchema, sessionEventProto(facts));
}

/** A bus message as the sessions relay publishes it (subject gateway.events.<type>, id = event id). */
export function publishedEvent(facts: SessionEventFacts, prefix = "gateway.events") {
  return { id: facts.eventId, subject: `${prefix}.${facts.eventType}`, data: sessionEventBytes(facts) };
}

/** Facts of a refund event: an automated refund, or with `manual` one operations settled by hand. */
export function refundEventFacts(
  type: RefundWebhookEventType,
  o: {
    scope?: AccountScope;
    sessionId?: string;
    eventId?: string;
    occurredAt?: Date;
    webhookUrl?: string;
    metadataJson?: string;
    manual?: boolean;
  } = {},
): RefundEventFacts {
  const manual = o.manual ?? type === "refund.failed";
  return {
    eventId: o.eventId ?? newId("evt"),
    eventType: type,
    occurredAt: o.occurredAt ?? new Date(Date.UTC(2026, 0, 2, 9, 30, 0)),
    refund: {
      id: newId("re"),
      sessionId: o.sessionId ?? newId("ps"),
      scope: o.scope ?? newScope(),
      type: "PARTIAL",
      status: type === "refund.succeeded" ? "SUCCEEDED" : "FAILED",
      amount: "12.500",
      currency: "TND",
      reason: "damaged item",
      metadataJson: o.metadataJson ?? METADATA,
      automated: !manual,
      ...(manual ? { acquirerErrorMessage: "Refund amount exceeds the deposited amount" } : {}),
      createdAt: new Date(Date.UTC(2026, 0, 2, 9, 0, 0)),
    },
    session: {
      merchantReference: "order-42",
      orderNumber: "GW-ABC123",
      ...(o.webhookUrl ? { webhookUrl: o.webhookUrl } : {}),
    },
  };
}

/** The same event as the refunds relay publishes it: a gateway.events.v1.RefundEvent. */
export function refundEventBytes(facts: RefundEventFacts): Uint8Array {
  const r = facts.refund;
  return toBinary(
    RefundEventSchema,
    create(RefundEventSchema, {
      eventId: facts.eventId,
      eventType: facts.eventType,
      occurredAt: timestampFromDate(facts.occurredAt),
      refund: create(RefundSchema, {
        id: r.id,
        sessionId: r.sessionId,
        scope: create(AccountScopeSchema, r.scope),
        refundType: RefundType[r.type as keyof typeof RefundType],
        status: RefundStatus[r.status as keyof typeof RefundStatus],
        amount: r.amount,
        currency: r.currency,
        reason: r.reason ?? "",
        metadataJson: r.metadataJson ?? "",
        automated: r.automated,
        acquirerErrorMessage: r.acquirerErrorMessage ?? "",
        createdAt: timestampFromDate(r.createdAt),
      }),
      sessionMerchantReference: facts.session.merchantReference,
      sessionOrderNumber: facts.session.orderNumber,
      sessionWebhookUrl: facts.session.webhookUrl ?? "",
    }),
  );
}

/** A bus message as the refunds relay publishes it (subject gateway.events.<type>, id = event id). */
export function publishedRefundEvent(facts: RefundEventFacts, prefix = "gateway.events") {
  return { id: facts.eventId, subject: `${prefix}.${facts.eventType}`, data: refundEventBytes(facts) };
}
