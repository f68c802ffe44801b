import type { Clock, LiveEventFeed } from "@gateway/platform";
import { generateWebhookSecret } from "@gateway/webhook-signature";
import type { Delivery, DeliveryClaim } from "../domain/delivery.js";
import { expectedUrl } from "../domain/delivery-target.js";
import { derivedId } from "../domain/derived-id.js";
import { isSubscribed, subscriptionsOf } from "../domain/event-subscriptions.js";
import type { WebhookEvent } from "../domain/webhook-event.js";
import type { WebhooksStores } from "./ports.js";
import type { KnownContext } from "./send-attempt.js";

export interface RecordedEvent {
  /** False when the event was already known (a redelivery or a repeated publish): nothing new was stored. */
  firstTime: boolean;
  /** The stored metadata was not a JSON object; the envelope carries `metadata: null`. */
  metadataUnreadable: boolean;
  /**
   * The first attempt, when this call queued it, with the event and endpoint it was queued
   * from: hand it to the dispatcher to send at once.
   */
  queued?: QueuedAttempt;
}

export interface QueuedAttempt {
  attempt: Delivery;
  /** Absent when the event was stored before: the stored one (and its body) wins, read at send time. */
  known?: KnownContext;
}

export interface RecordEventDeps {
  stores: WebhooksStores;
  clock: Clock;
  /** Where test-mode events are offered to developers' `listen` streams; none: nobody listens. */
  liveFeed?: LiveEventFeed;
  /**
   * A send slot for the first attempt, when the dispatcher has one free for its URL: the attempt
   * is then stored already leased to this process and sent at once, with no claim to make.
   */
  reserveSend?: (url: string) => SendReservation | undefined;
}

/** A send slot held for an attempt about to be stored under `claim`. */
export interface SendReservation {
  claim: DeliveryClaim;
  /** The attempt is stored with `claim`: send it in the slot. */
  send(attempt: Delivery & { claim: DeliveryClaim }, known?: KnownContext): void;
  /** Nothing to send after all: free the slot. */
  cancel(): void;
}

/** The id of an event's first attempt, the same however often the event arrives. */
export function firstAttemptId(eventId: string): string {
  return derivedId("whd", `first attempt of ${eventId}`);
}

/**
 * Stores an event with its envelope bytes and queues its first attempt (PENDING, due now).
 * Idempotent on the event id: both writes are keyed by it, so a redelivered or republished
 * event (or a crash between the writes) never starts a second chain.
 */
export async function recordWebhookEvent(
  deps: RecordEventDeps,
  received: Omit<WebhookEvent, "receivedAt" | "traceContext">,
  traceContext?: Record<string, string>,
): Promise<{ firstTime: boolean; queued?: QueuedAttempt }> {
  const { stores, clock } = deps;
  const now = clock.now();
  const event: WebhookEvent = {
    ...received,
    ...(traceContext && Object.keys(traceContext).length > 0 ? { traceContext } : {}),
    receivedAt: now,
  };
  const stored = await stores.events.insert(event);
  // A session's own webhook_url is signed with the account's secret: make sure there is one,
  // or the delivery could only fail (docs/decisions.md#a-signing-secret-from-the-start).
  const endpoint =
    (await stores.endpoints.find(event.scope)) ??
    (event.sessionWebhookUrl
      ? await stores.endpoints.ensureSecret(event.scope, generateWebhookSecret(), now)
      : undefined);
  // Events the account does not subscribe to (in this mode) are kept but not sent, whether they
  // would go to the endpoint or to a session's own webhook_url (docs/api/webhooks.md#event-subscriptions).
  const subscriptions = subscriptionsOf(endpoint?.enabledEvents);
  if (!isSubscribed(subscriptions, event.type)) {
    publishToListeners(deps, event, stored === "inserted");
    return { firstTime: stored === "inserted" };
  }
  const first: Delivery = {
    id: firstAttemptId(event.id),
    scope: event.scope,
    sessionId: event.sessionId,
    event: event.type,
    eventId: event.id,
    url: expectedUrl(event.sessionWebhookUrl, endpoint),
    attemptNumber: 1,
    chainAttempt: 1,
    trigger: "initial",
    status: "PENDING",
    createdAt: now,
    dueAt: now,
  };
  const reservation = deps.reserveSend?.(first.url);
  let queued: "inserted" | "already_exists";
  try {
    queued = await stores.deliveries.insert(reservation ? { ...first, claim: reservation.claim } : first);
  } catch (err) {
    reservation?.cancel();
    throw err;
  }
  publishToListeners(deps, event, stored === "inserted");
  // The stored event (and its body) wins over this one when it was there before.
  const known = stored === "inserted" ? { known: { event, endpoint } } : {};
  if (queued !== "inserted") reservation?.cancel();
  else if (reservation) reservation.send({ ...first, claim: reservation.claim }, known.known);
  return {
    firstTime: stored === "inserted" || queued === "inserted",
    ...(queued === "inserted" && !reservation ? { queued: { attempt: first, ...known } } : {}),
  };
}

/** Once per event, after it is stored: a listener never sees an event the gateway could lose. */
function publishToListeners(deps: RecordEventDeps, event: WebhookEvent, firstTime: boolean): void {
  if (firstTime && !event.scope.livemode)
    deps.liveFeed?.publish(event.scope.merchantId, { id: event.id, type: event.type, body: event.body });
}
