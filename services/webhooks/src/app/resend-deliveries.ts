import { type Clock, GatewayError, newId } from "@gateway/platform";
import { type AccountScope, sameScope } from "../domain/account-scope.js";
import type { Delivery, DeliveryStatus } from "../domain/delivery.js";
import { expectedUrl } from "../domain/delivery-target.js";
import type { WebhookEndpoint } from "../domain/webhook-endpoint.js";
import { insertNextAttempt } from "./insert-next-attempt.js";
import type { WebhooksStores } from "./ports.js";

export interface ResendDeps {
  stores: WebhooksStores;
  clock: Clock;
  /** Tells the dispatcher there is work now. */
  wake?: () => void;
  /** How long one bulk call takes new events; default MAX_BULK_RESEND_MS. */
  bulkTimeBudgetMs?: number;
}

/** At most this many events per bulk call; later calls continue (see bulkResendDeliveries). */
export const MAX_BULK_RESEND = 1_000;
/**
 * A bulk call stops taking new events after this long, so it answers well within a client's
 * timeout however slow the store is; later calls continue where it stopped.
 */
export const MAX_BULK_RESEND_MS = 5_000;
/**
 * Attempts listed per page: a call's whole share in one look. Each look costs the store a read of
 * the account's deliveries on a server that cannot serve the time range from an index (FerretDB
 * 1.24), so pages of 100 spent most of a call looking (measured in docs/benchmarks.md, "Bulk
 * resend of 10,000 deliveries").
 */
const BULK_PAGE = MAX_BULK_RESEND;
/** Resends of one page queued side by side. */
const BULK_PARALLEL = 8;

/**
 * Queues one resend of the event, as a new attempt due now. `endpoint` is the account's, when
 * the caller already read it; `latest` the event's latest attempt, when the caller knows it.
 */
async function queueResend(
  deps: ResendDeps,
  of: Delivery,
  known: { endpoint?: WebhookEndpoint | undefined; latest?: Delivery } = {},
): Promise<Delivery> {
  const { stores, clock } = deps;
  const event = await stores.events.findById(of.eventId);
  if (!event) throw new Error(`event ${of.eventId} of delivery ${of.id} is missing`);
  const endpoint = "endpoint" in known ? known.endpoint : await stores.endpoints.find(of.scope);
  const now = clock.now();
  const { delivery } = await insertNextAttempt(
    stores.deliveries,
    of.eventId,
    (attemptNumber) => ({
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
    }),
    known.latest,
  );
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

export interface BulkResendOutcome {
  /** Events resent by this call. */
  resent: number;
  /**
   * The cutoff the call used: the filter's `createdLte`, or the moment before the call began.
   * Repeating the call with it continues where this one stopped.
   */
  createdLte: Date;
}

/**
 * Resends every event whose latest attempt matches the filter, once (e.g. "everything that
 * failed yesterday"). Only attempts created up to the cutoff count, and without a `createdLte`
 * the cutoff is the moment the call began, so the resends it queues never match it. One call
 * resends at most MAX_BULK_RESEND events and stops taking new ones after MAX_BULK_RESEND_MS, so
 * it always answers in bounded time; a repeat with the answered cutoff continues where it
 * stopped (docs/decisions.md#bulk-resends-answer-in-bounded-time-and-drain-in-repeated-calls).
 * A repeat without it would also match the resends queued since, once their time has passed.
 */
export async function bulkResendDeliveries(
  deps: ResendDeps,
  scope: AccountScope,
  filter: BulkResendFilter,
): Promise<BulkResendOutcome> {
  const { stores, clock } = deps;
  if (filter.createdGte && filter.createdLte && filter.createdGte > filter.createdLte) {
    throw GatewayError.validation([
      { field: "created_gte", code: "invalid", message: "created_gte must not be after created_lte." },
    ]);
  }
  const startedAt = clock.now();
  const stopAt = Date.now() + (deps.bulkTimeBudgetMs ?? MAX_BULK_RESEND_MS);
  // Strictly before the call: a resend queued by an earlier call in the same millisecond must not match.
  const before = new Date(startedAt.getTime() - 1);
  const createdLte = filter.createdLte && filter.createdLte < before ? filter.createdLte : before;
  const endpoint = await stores.endpoints.find(scope);
  const seen = new Set<string>();
  let resent = 0;
  let after: { createdAt: Date; id: string } | undefined;
  while (resent < MAX_BULK_RESEND && Date.now() < stopAt) {
    const page = await stores.deliveries.list(
      scope,
      {
        createdLte,
        ...(filter.createdGte ? { createdGte: filter.createdGte } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.event ? { event: filter.event } : {}),
        latestOnly: true,
      },
      after ? { limit: BULK_PAGE, after } : { limit: BULK_PAGE },
    );
    // Newest first, so each event's first row here is its latest matching attempt.
    const candidates = page.deliveries.filter((d) => !seen.has(d.eventId) && seen.add(d.eventId));
    const budget = MAX_BULK_RESEND - resent;
    let taken = 0;
    await inParallel(candidates, BULK_PARALLEL, async (delivery) => {
      if (taken >= budget || Date.now() >= stopAt) return;
      // It counts only if it is the event's latest attempt of all.
      const latest = await stores.deliveries.latestForEvent(delivery.eventId);
      if (latest?.id !== delivery.id || taken >= budget) return;
      taken += 1;
      await queueResend(deps, delivery, { endpoint, latest });
    });
    resent += taken;
    const last = page.deliveries.at(-1);
    if (!page.hasMore || !last) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  if (resent > 0) deps.wake?.();
  return { resent, createdLte };
}

/** Runs `work` over `items`, at most `limit` at once; rejects with the first failure. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
