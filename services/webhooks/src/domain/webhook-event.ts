import type { AccountScope } from "./account-scope.js";
import type { WebhookEventType } from "./event-types.js";

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

/** A session event as published by the sessions service, in domain terms. */
export interface SessionEventFacts {
  eventId: string;
  eventType: WebhookEventType;
  /** Per-session sequence 1, 2, 3… in the order the session's events happened. */
  sequence: number;
  occurredAt: Date;
  session: EventSession;
  /** session.succeeded only. */
  payment?: PaymentFacts;
  /** session.failed only. */
  failure?: FailureFacts;
}

/**
 * An event as stored by the webhooks service: the envelope's exact bytes are built once, when
 * the event first arrives, and every attempt (retry or resend) sends them unchanged.
 */
export interface WebhookEvent {
  id: string;
  scope: AccountScope;
  sessionId: string;
  type: WebhookEventType;
  sequence: number;
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
