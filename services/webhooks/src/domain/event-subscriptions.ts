import type { FieldViolation } from "@gateway/platform";
import { isWebhookEventType, REFUND_WEBHOOK_EVENT_TYPES } from "./event-types.js";

/**
 * What an endpoint receives when its merchant never chose: the session events of the payment
 * flow (docs/api/webhooks.md#event-subscriptions). Refund events and late-payment returns are
 * opt-in, so a receiver that acts on every webhook without reading `event` never takes a refund
 * for a payment. The account's subscriptions (per mode) apply wherever its events go: to the
 * endpoint and to a session's own `webhook_url` alike.
 */
export const DEFAULT_SUBSCRIPTIONS = [
  "session.succeeded",
  "session.failed",
  "session.expired",
  "checkout.session.expired",
] as const;

/** Every refund event, as one subscription. */
export const ALL_REFUND_EVENTS = "refund.*";

/** The dashboard's "send a test event": delivered to the endpoint whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test";

/** The subscriptions in effect: the endpoint's own, or the default set. */
export function subscriptionsOf(enabledEvents: readonly string[] | undefined): readonly string[] {
  return enabledEvents ?? DEFAULT_SUBSCRIPTIONS;
}

export function isSubscribed(subscriptions: readonly string[], eventType: string): boolean {
  if (eventType === TEST_EVENT_TYPE) return true;
  if (subscriptions.includes(eventType)) return true;
  return (
    subscriptions.includes(ALL_REFUND_EVENTS) &&
    (REFUND_WEBHOOK_EVENT_TYPES as readonly string[]).includes(eventType)
  );
}

/** A merchant's chosen subscriptions: known event types or `refund.*`, each once, in a stable order. */
export function readSubscriptions(
  events: readonly string[],
): { ok: true; events: string[] } | { ok: false; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  events.forEach((event, i) => {
    if (event !== ALL_REFUND_EVENTS && !isWebhookEventType(event))
      violations.push({
        field: `enabled_events[${i}]`,
        code: "invalid",
        message: `enabled_events[${i}] is not an event type (${ALL_REFUND_EVENTS} stands for every refund event).`,
      });
  });
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, events: [...new Set(events)].sort() };
}
