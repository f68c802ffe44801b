import { type Clock, GatewayError, newId } from "@gateway/platform";
import { type AccountScope, sameScope } from "../domain/account-scope.js";
import type { Delivery, DeliveryStatus } from "../domain/delivery.js";
import { expectedUrl } from "../domain/delivery-target.js";
import { insertNextAttempt } from "./insert-next-attempt.js";
import type { WebhooksStores } from "./ports.js";

export interface ResendDeps {
  stores: WebhooksStores;
  clock: Clock;
  /** Tells the dispatcher there is work now. */
  wake?: () => void;
}

/** At most this many events per bulk call; later calls continue (see bulkResendDeliveries). */
export const MAX_BULK_RESEND = 1_000;
const BULK_PAGE = 100;

/** Queues one resend of the event, as a new attempt due now. */
async function queueResend(deps: ResendDeps, of: Delivery): Promise<Delivery> {
  const { stores, clock } = deps;
  const event = await stores.events.findById(of.eventId);
  if (!event) throw new Error(`event ${of.eventId} of delivery ${of.id} is missing`);
  const endpoint = await stores.endpoints.find(of.scope);
  const now = clock.now();
  const { delivery } = await insertNextAttempt(stores.deliveries, of.eventId, (attemptNumber) => ({
    id: newId("whd"),
    scope: of.scope,
    sessionId: of.sessionId,
    event: of.event,
    eventId: of.eventId,
    url: expectedUrl(event.sessionWebhookUrl, endpoint),
    attemptNumber,
    chainAttempt: 1,
    trigger: "resend",
    status: "PENDING",
    createdAt: now,
    dueAt: now,
  }));
  return delivery;
}

/**
 * Resends a delivery's event (docs/api/webhooks.md#resend): a new attempt, due now, of the same event with the
 * same bytes and the same X-Service-Webhook-Id, signed at send time with the current secret and
 * sent to the URL that applies now. Its attempt number continues the event's. A resend is one
 * attempt: it is not retried automatically.
 */
export async function resendDelivery(
  deps: ResendDeps,
  deliveryId: string,
  /** The caller's account (merchant API): another account's delivery is answered as unknown. */
  scope?: AccountScope,
): Promise<Delivery> {
  if (deliveryId === "")
    throw GatewayError.validation([
      { field: "delivery_id", code: "required", message: "A delivery id is required." },
    ]);
  const original = await deps.stores.deliveries.findById(deliveryId);
  if (!original || (scope !== undefined && !sameScope(original.scope, scope)))
    throw GatewayError.notFound("webhook delivery", deliveryId);
  const resend = await queueResend(deps, original);
  deps.wake?.();
  return resend;
}

export interface BulkResendFilter {
  createdGte?: Date;
  createdLte?: Date;
  status?: DeliveryStatus;
  event?: string;
}

/**
 * Resends every event whose latest attempt matches the filter, once (e.g. "everything that
 * failed yesterday"). Only attempts that existed when the call started are considered, so the
 * resends it queues never match it and repeating the call continues where it stopped: one
 * call resends at most MAX_BULK_RESEND events.
 */
export async function bulkResendDeliveries(
  deps: ResendDeps,
  scope: AccountScope,
  filter: BulkResendFilter,
): Promise<number> {
  const { stores, clock } = deps;
  if (filter.createdGte && filter.createdLte && filter.createdGte > filter.createdLte) {
    throw GatewayError.validation([
      { field: "created_gte", code: "invalid", message: "created_gte must not be after created_lte." },
    ]);
  }
  const startedAt = clock.now();
  const createdLte = filter.createdLte && filter.createdLte < startedAt ? filter.createdLte : startedAt;
  const seen = new Set<string>();
  let resent = 0;
  let after: { createdAt: Date; id: string } | undefined;
  while (resent < MAX_BULK_RESEND) {
    const page = await stores.deliveries.list(
      scope,
      {
        createdLte,
        ...(filter.createdGte ? { createdGte: filter.createdGte } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.event ? { event: filter.event } : {}),
      },
      after ? { limit: BULK_PAGE, after } : { limit: BULK_PAGE },
    );
    for (const delivery of page.deliveries) {
      if (resent >= MAX_BULK_RESEND) break;
      if (seen.has(delivery.eventId)) continue;
      seen.add(delivery.eventId);
      // Newest first, so this is the event's latest matching attempt; it counts only if it is the event's latest of all.
      const latest = await stores.deliveries.latestForEvent(delivery.eventId);
      if (latest?.id !== delivery.id) continue;
      await queueResend(deps, delivery);
      resent += 1;
    }
    const last = page.deliveries.at(-1);
    if (!page.hasMore || !last) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  if (resent > 0) deps.wake?.();
  return resent;
}
