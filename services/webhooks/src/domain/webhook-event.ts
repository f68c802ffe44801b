import type { AccountScope } from "./account-scope.js";
import type { RefundWebhookEventType, SessionWebhookEventType, WebhookEventType } from "./event-types.js";

/** The session as the event saw it, right after the change (from the events stream). */
export interface EventSession {
  id: string;
  scope: AccountScope;
  merchantReference: string;
  orderNumber: string;
  orderId?: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  description?: string;
  /** CREATED, PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED, CANCELED. */
  status: string;
  buyer: { firstName?: string; lastName?: string; email?: string; phone?: string };
  /** `unitPrice` is a decimal string at the original currency's precision. */
  items: Array<{ name: string; quantity: number; unitPrice: string; description?: string }>;
  /** The merchant's metadata as the exact JSON text it sent; absent when none. */
  metadataJson?: string;
  /** The per-session webhook URL override; absent when the account endpoint applies. */
  webhookUrl?: string;
  completedAt?: Date;
}

export interface PaymentFacts {
  paidAt: Date;
  method: string;
  cardBrand?: string;
  cardLastFour?: string;
  cardCountry?: string;
  /** Decimal strings in the session currency. */
  feeAmount?: string;
  netAmount?: string;
}

export interface FailureFacts {
  lastFailureCode?: string;
  lastFailureMessage?: string;
  attemptsCount: number;
  canRetry: boolean;
}

/** A payment approved after the session could no longer keep it, and given back. */
export interface LatePaymentFacts {
  attemptId: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  cardBrand?: string;
  cardLastFour?: string;
  approvedAt?: Date;
  returnedAt?: Date;
  /** "reversal" or "refund". */
  method: string;
  /** session_expired, session_canceled, session_failed, already_paid. */
  reason: string;
}

/** A session event as published by the sessions service, in domain terms. */
export interface SessionEventFacts {
  eventId: string;
  eventType: SessionWebhookEventType;
  /** Per-session sequence 1, 2, 3… in the order the session's events happened. */
  sequence: number;
  occurredAt: Date;
  session: EventSession;
  /** session.succeeded only. */
  payment?: PaymentFacts;
  /** session.failed only. */
  failure?: FailureFacts;
  /** session.late_payment_returned only. */
  latePayment?: LatePaymentFacts;
}

/** The refund as the refund event saw it, right after it reached its final outcome. */
export interface EventRefund {
  id: string;
  sessionId: string;
  scope: AccountScope;
  /** FULL or PARTIAL. */
  type: string;
  /** SUCCEEDED or FAILED. */
  status: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  reason?: string;
  /** The merchant's metadata as the exact JSON text it sent; absent when none. */
  metadataJson?: string;
  /** True when the acquirer confirmed it; false when operations settled it by hand. */
  automated: boolean;
  /** The acquirer's reason when it could not confirm the refund. */
  acquirerErrorMessage?: string;
  createdAt: Date;
}

/** A refund event as published by the refunds service, in domain terms. */
export interface RefundEventFacts {
  eventId: string;
  eventType: RefundWebhookEventType;
  occurredAt: Date;
  refund: EventRefund;
  /** The refunded session, as the merchant knows it and where its webhooks go. */
  session: { merchantReference: string; orderNumber: string; webhookUrl?: string };
}

/**
 * An event as stored by the webhooks service: the envelope's exact bytes are built once, when
 * the event first arrives, and every attempt (retry or resend) sends them unchanged.
 */
export interface WebhookEvent {
  id: string;
  scope: AccountScope;
  /** Empty for a test event (it belongs to no session). */
  sessionId: string;
  /** A merchant event, or the dashboard's test event. */
  type: WebhookEventType | "webhook.test";
  /** The session event's sequence; refund events have none. */
  sequence?: number;
  occurredAt: Date;
  sessionWebhookUrl?: string;
  /** The envelope JSON text (UTF-8 on the wire). */
  body: string;
  /**
   * W3C trace context of the publisher (traceparent, tracestate), so every POST of the event
   * continues the trace of the payment that caused it. Never sent to the merchant.
   */
  traceContext?: Record<string, string>;
  receivedAt: Date;
}
