import { Buffer } from "node:buffer";
import type { Clock } from "@gateway/platform";
import type { Delivery, DeliveryClaim, DeliveryResult } from "../domain/delivery.js";
import { resolveDeliveryTarget } from "../domain/delivery-target.js";
import { derivedId } from "../domain/derived-id.js";
import { planRetry } from "../domain/retry-schedule.js";
import type { WebhookEndpoint } from "../domain/webhook-endpoint.js";
import type { WebhookEvent } from "../domain/webhook-event.js";
import { insertNextAttempt } from "./insert-next-attempt.js";
import type { WebhookSender, WebhooksStores } from "./ports.js";
import type { WebhooksSettings } from "./webhooks-settings.js";

export interface SendAttemptDeps {
  stores: WebhooksStores;
  sender: WebhookSender;
  clock: Clock;
  settings: Pick<WebhooksSettings, "timeoutMs" | "retryScheduleMs">;
}

/** What became of one claimed attempt, for logs, metrics and the dispatcher's wake-ups. */
export type AttemptReport = {
  deliveryId: string;
  eventId: string;
  event: string;
  attemptNumber: number;
} & (
  | { outcome: "succeeded"; httpStatus?: number; responseTimeMs: number }
  | {
      outcome: "failed";
      httpStatus?: number;
      responseTimeMs?: number;
      errorMessage: string;
      /** Operators only: the precise cause (logged, never stored on the delivery). */
      errorDetail?: string;
      failureCause?: string;
      retryAt?: Date;
      endpointDisabled: boolean;
    }
  /** Not sent at all (no endpoint, no secret, endpoint disabled, event missing). */
  | { outcome: "not_sent"; errorMessage: string }
  /** Another dispatcher took the attempt over (our lease ran out): our outcome was not recorded. */
  | { outcome: "lease_lost" }
  /** The dispatcher stopped without waiting for us: nothing recorded, the lease will expire. */
  | { outcome: "abandoned" }
);

/** What the events consumer had in hand when it queued a first attempt. */
export interface KnownContext {
  event: WebhookEvent;
  endpoint: WebhookEndpoint | undefined;
}

export const GONE_REASON = "Receiver answered HTTP 410 Gone";

/** The retry of `failedId`, one id however often the failure is recorded (crash and re-run). */
export function retryIdOf(failedId: string): string {
  return derivedId("whd", `retry of ${failedId}`);
}

/**
 * Queues the retry of a failed attempt (PENDING, due at `at`). Written BEFORE the failure is
 * recorded, so a crash in between re-runs the attempt (at-least-once) and finds its retry
 * already there (same derived id) instead of losing it or queueing a second one.
 */
async function queueRetry(
  stores: WebhooksStores,
  failed: Delivery,
  url: string,
  at: Date,
  now: Date,
): Promise<void> {
  const id = retryIdOf(failed.id);
  if (await stores.deliveries.findById(id)) return;
  await insertNextAttempt(stores.deliveries, failed.eventId, (attemptNumber) => ({
    id,
    scope: failed.scope,
    sessionId: failed.sessionId,
    event: failed.event,
    eventId: failed.eventId,
    url,
    attemptNumber,
    chainAttempt: failed.chainAttempt + 1,
    trigger: "retry",
    status: "PENDING",
    nextRetryAt: at,
    createdAt: now,
    dueAt: at,
  }));
}

/**
 * Sends one attempt this dispatcher has claimed and records its outcome: signed with the
 * secrets valid now, the event's stored bytes, to the URL that applies now. A failure queues
 * the next retry per the schedule (Retry-After honoured when longer); 410 Gone ends the chain
 * and disables the account endpoint it came from.
 */
export async function sendClaimedAttempt(
  deps: SendAttemptDeps,
  attempt: Delivery & { claim: DeliveryClaim },
  isAbandoned: () => boolean = () => false,
  /** The event and the account's endpoint as the caller read them a moment ago (saves two reads). */
  known?: KnownContext,
): Promise<AttemptReport> {
  const { stores, sender, clock, settings } = deps;
  const about = {
    deliveryId: attempt.id,
    eventId: attempt.eventId,
    event: attempt.event,
    attemptNumber: attempt.attemptNumber,
  };
  const token = attempt.claim.token;
  const complete = (result: DeliveryResult): Promise<boolean> =>
    stores.deliveries.complete(attempt.id, token, result);

  const event = known?.event ?? (await stores.events.findById(attempt.eventId));
  if (!event) {
    const errorMessage = "Internal error: the event of this delivery is missing";
    if (!(await complete({ status: "FAILED", url: attempt.url, errorMessage, completedAt: clock.now() })))
      return { ...about, outcome: "lease_lost" };
    return { ...about, outcome: "not_sent", errorMessage };
  }

  const endpoint = known ? known.endpoint : await stores.endpoints.find(attempt.scope);
  const sentAt = clock.now();
  const target = resolveDeliveryTarget(event.sessionWebhookUrl, endpoint, sentAt);
  if (!target.ok) {
    if (
      !(await complete({
        status: "FAILED",
        url: target.url,
        errorMessage: target.message,
        completedAt: sentAt,
      }))
    ) {
      return { ...about, outcome: "lease_lost" };
    }
    return { ...about, outcome: "not_sent", errorMessage: target.message };
  }

  const outcome = await sender.send({
    url: target.url,
    body: Buffer.from(event.body, "utf8"),
    webhookId: event.id,
    event: event.type,
    secrets: target.secrets,
    timestamp: Math.floor(sentAt.getTime() / 1000),
    timeoutMs: settings.timeoutMs,
    ...(event.traceContext ? { traceContext: event.traceContext } : {}),
  });
  if (isAbandoned()) return { ...about, outcome: "abandoned" };
  const now = clock.now();
  const figures = {
    url: target.url,
    responseTimeMs: outcome.responseTimeMs,
    ...(outcome.httpStatus !== undefined ? { httpStatusCode: outcome.httpStatus } : {}),
    ...(outcome.sentHeaders ? { requestHeaders: outcome.sentHeaders } : {}),
    ...(outcome.responseExcerpt !== undefined ? { responseExcerpt: outcome.responseExcerpt } : {}),
  };

  if (outcome.ok) {
    if (!(await complete({ status: "SUCCEEDED", ...figures, completedAt: now })))
      return { ...about, outcome: "lease_lost" };
    return {
      ...about,
      outcome: "succeeded",
      httpStatus: outcome.httpStatus,
      responseTimeMs: outcome.responseTimeMs,
    };
  }

  const errorMessage = outcome.errorMessage ?? "Delivery failed";
  const plan = planRetry(
    attempt,
    { gone: outcome.gone, retryAfterMs: outcome.retryAfterMs },
    settings.retryScheduleMs,
    now,
  );
  if (plan.retry) await queueRetry(stores, attempt, target.url, plan.at, now);
  const recorded = await complete({
    status: "FAILED",
    ...figures,
    errorMessage,
    ...(plan.retry ? { nextRetryAt: plan.at } : {}),
    completedAt: now,
  });
  if (!recorded) return { ...about, outcome: "lease_lost" };
  const endpointDisabled =
    outcome.gone && target.toAccountEndpoint
      ? await stores.endpoints.disable(attempt.scope, target.url, now, GONE_REASON)
      : false;
  return {
    ...about,
    outcome: "failed",
    httpStatus: outcome.httpStatus,
    responseTimeMs: outcome.responseTimeMs,
    errorMessage,
    ...(outcome.errorDetail !== undefined ? { errorDetail: outcome.errorDetail } : {}),
    ...(outcome.failureCause !== undefined ? { failureCause: outcome.failureCause } : {}),
    endpointDisabled,
    ...(plan.retry ? { retryAt: plan.at } : {}),
  };
}
