import type { ConnectRouter } from "@connectrpc/connect";
import type { Clock, EventBus, EventSubscription, LiveEventFeed, Logger } from "@gateway/platform";
import { WebhookEndpointsService, WebhookService } from "@gateway/proto";
import { subscribeToGatewayEvents } from "./adapters/events/gateway-event-consumer.js";
import { recordAttemptMetrics } from "./adapters/metrics/delivery-metrics.js";
import { DeliveryDispatcher, type StopOptions } from "./app/delivery-dispatcher.js";
import type { WebhookSender, WebhooksStores } from "./app/ports.js";
import { recordRefundEvent } from "./app/record-refund-event.js";
import { recordSessionEvent } from "./app/record-session-event.js";
import type { WebhooksSettings } from "./app/webhooks-settings.js";
import { assertRetrySchedule } from "./domain/retry-schedule.js";
import { createWebhookEndpointsHandlers } from "./rpc/webhook-endpoints-service.js";
import { createWebhookServiceHandlers } from "./rpc/webhook-service.js";

/** The error domain in every ErrorDetail this service raises. */
export const WEBHOOKS_ERROR_DOMAIN = "webhooks.gateway";

export interface WebhooksRoutesDeps {
  stores: WebhooksStores;
  clock: Clock;
  logger: Logger;
  settings: Pick<WebhooksSettings, "secretOverlapMs">;
  /** The runtime's wake(), so a resend goes out at once instead of at the next poll. */
  wake?: () => void;
}

/**
 * WebhookService on a Connect router, for the distributed server (main.ts) and embedded mode
 * (createInProcessTransport) alike.
 */
export function createWebhooksRoutes(deps: WebhooksRoutesDeps): (router: ConnectRouter) => void {
  const handlers = createWebhookServiceHandlers({
    stores: deps.stores,
    clock: deps.clock,
    secretOverlapMs: deps.settings.secretOverlapMs,
    ...(deps.wake ? { wake: deps.wake } : {}),
  });
  // No per-service interceptors: Connect would replace the server's list (tracing, metrics, error details).
  const endpoints = createWebhookEndpointsHandlers({
    stores: deps.stores,
    clock: deps.clock,
    ...(deps.wake ? { wake: deps.wake } : {}),
  });
  return (router) => {
    router.service(WebhookService, handlers);
    router.service(WebhookEndpointsService, endpoints);
  };
}

export interface WebhooksRuntimeDeps {
  stores: WebhooksStores;
  /** Where session and refund events arrive: the shared InMemoryEventBus (embedded) or JetStream. */
  bus: EventBus;
  /** Signs and POSTs (createSigningWebhookSender over createHttpDeliverer). */
  sender: WebhookSender;
  clock: Clock;
  logger: Logger;
  settings: WebhooksSettings;
  /** Subjects are `<prefix>.session.*`, `<prefix>.checkout.session.expired` and `<prefix>.refund.*`; default "gateway.events". */
  subjectPrefix?: string;
  /** Durable consumer name; default "webhooks" (replicas share it). */
  durable?: string;
  /** Offers each new test-mode event to developers' `listen` streams. */
  liveFeed?: LiveEventFeed;
}

export interface WebhooksRuntime {
  /** Starts consuming session and refund events and sending due attempts. */
  start(): Promise<void>;
  /** Look for due attempts now (after a resend through the routes). */
  wake(): void;
  /**
   * Stops consuming (events being stored finish first), stops claiming attempts, then waits up to
   * `graceMs` for attempts in flight; unfinished ones are sent again by a replica once their lease
   * expires. Close the HTTP deliverer, the bus and the stores after this.
   */
  stop(options?: StopOptions): Promise<void>;
  /** The dispatcher, for tests that drive it directly. */
  readonly dispatcher: DeliveryDispatcher;
}

/** The moving parts of the webhooks service: the events consumer and the delivery dispatcher. */
export function createWebhooksRuntime(deps: WebhooksRuntimeDeps): WebhooksRuntime {
  assertRetrySchedule(deps.settings.retryScheduleMs);
  const dispatcher = new DeliveryDispatcher({
    stores: deps.stores,
    sender: deps.sender,
    clock: deps.clock,
    settings: deps.settings,
    logger: deps.logger,
    onReport: recordAttemptMetrics,
  });
  let subscription: EventSubscription | undefined;
  return {
    dispatcher,
    async start() {
      if (subscription) return;
      const recordDeps = {
        stores: deps.stores,
        clock: deps.clock,
        ...(deps.liveFeed ? { liveFeed: deps.liveFeed } : {}),
        reserveSend: (url: string) => dispatcher.reserve(url),
      };
      subscription = await subscribeToGatewayEvents({
        bus: deps.bus,
        logger: deps.logger,
        recordSession: (facts, traceContext) => recordSessionEvent(recordDeps, facts, traceContext),
        recordRefund: (facts, traceContext) => recordRefundEvent(recordDeps, facts, traceContext),
        // Deliver on the event: the first attempt was stored leased to a slot held for it, or,
        // when none was free, waits for one and is claimed by its id. A redelivered event whose
        // attempt was queued before is found by the next look.
        onRecorded: (recorded) => {
          if (recorded.queued) dispatcher.sendNow(recorded.queued);
        },
        ...(deps.subjectPrefix ? { subjectPrefix: deps.subjectPrefix } : {}),
        ...(deps.durable ? { durable: deps.durable } : {}),
        concurrency: deps.settings.concurrency,
      });
      dispatcher.start();
    },
    wake: () => dispatcher.wake(),
    async stop(options) {
      await subscription?.stop();
      await dispatcher.stop(options);
    },
  };
}
