/** The events a merchant receives (spec 6.1). */
export const WEBHOOK_EVENT_TYPES = ["session.succeeded", "session.failed", "session.expired", "checkout.session.expired"] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
