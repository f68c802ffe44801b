/**
 * Session events a merchant receives (docs/api/webhooks.md#event-types), session.late_payment_returned included
 * (a payment approved too late, given back automatically; see the README).
 */
export const SESSION_WEBHOOK_EVENT_TYPES = [
  "session.succeeded",
  "session.failed",
  "session.expired",
  "checkout.session.expired",
  "session.late_payment_returned",
] as const;

/** Refund events a merchant receives (docs/api/webhooks.md#refund-events): a refund reached its final outcome. */
export const REFUND_WEBHOOK_EVENT_TYPES = ["refund.succeeded", "refund.failed"] as const;

/** Every event a merchant receives. */
export const WEBHOOK_EVENT_TYPES = [...SESSION_WEBHOOK_EVENT_TYPES, ...REFUND_WEBHOOK_EVENT_TYPES] as const;

export type SessionWebhookEventType = (typeof SESSION_WEBHOOK_EVENT_TYPES)[number];
export type RefundWebhookEventType = (typeof REFUND_WEBHOOK_EVENT_TYPES)[number];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isSessionWebhookEventType(value: string): value is SessionWebhookEventType {
  return (SESSION_WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

export function isRefundWebhookEventType(value: string): value is RefundWebhookEventType {
  return (REFUND_WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
