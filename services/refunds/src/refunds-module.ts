import type { ConnectRouter } from "@connectrpc/connect";
import {
  type Clock,
  type EventBus,
  type EventSubscription,
  type Logger,
  outboxBacklogReporter,
} from "@gateway/platform";
import { RefundService, SessionRefundsService } from "@gateway/proto";
import { subscribeToPaidSessions } from "./adapters/events/session-succeeded-consumer.js";
import { prometheusRefundObserver, watchManualRefunds } from "./adapters/metrics/refund-metrics.js";
import { learnPaidSession } from "./app/learn-paid-session.js";
import { createOutboxRelay, type OutboxRelay } from "./app/outbox-relay.js";
import type { OutboxSignal, PaidSessionStore, RefundOutboxStore } from "./app/ports.js";
import type { RefundDeps } from "./app/refund-deps.js";
import { protoRefundEventEncoder } from "./rpc/refund-event-encoder.js";
import { createRefundServiceHandlers } from "./rpc/refund-service.js";
import { createSessionRefundsHandlers } from "./rpc/session-refunds-service.js";

/** The error domain in every ErrorDetail this service raises. */
export const REFUNDS_ERROR_DOMAIN = "refunds.gateway";

/** Everything RefundService needs; refund events are encoded as gateway.events.v1.RefundEvent. */
export type RefundsModuleDeps = Omit<RefundDeps, "events">;

/**
 * RefundService and SessionRefundsService on a Connect router, for the distributed server (main.ts) and embedded mode
 * (createInProcessTransport) alike. Pass the runtime as `outbox` so a settled refund's event
 * is published at once.
 */
export function createRefundsRoutes(deps: RefundsModuleDeps): (router: ConnectRouter) => void {
  watchManualRefunds(deps.refunds, deps.clock);
  const handlers = createRefundServiceHandlers({
    observer: prometheusRefundObserver,
    ...deps,
    events: protoRefundEventEncoder,
  });
  return (router) => {
    router.service(RefundService, handlers);
    router.service(SessionRefundsService, createSessionRefundsHandlers(deps));
  };
}

export interface RefundsRuntimeDeps {
  /** The refund store, whose outbox the relay publishes. */
  refunds: RefundOutboxStore;
  paidSessions: PaidSessionStore;
  /** JetStream in distributed mode, the in-memory bus shared with webhooks in embedded mode. */
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Subjects are `<prefix>.refund.*` (published) and `<prefix>.session.succeeded` (consumed); default "gateway.events". */
  subjectPrefix?: string;
  /** Durable consumer of session.succeeded; default "refunds" (replicas share it). */
  durable?: string;
  /** Safety-net pause between the relay's looks at the outbox (writes wake it); default 1 s. */
  outboxPollIntervalMs?: number;
}

export interface RefundsRuntime extends OutboxSignal {
  /** Starts consuming session.succeeded events and publishing refund events. Call once serving. */
  start(): Promise<void>;
  /** Stops consuming (events being recorded finish), then the relay (its look in progress finishes). */
  stop(): Promise<void>;
  readonly relay: OutboxRelay;
}

/** The moving parts of the refunds service: the refund event relay and the paid-session consumer. */
export function createRefundsRuntime(deps: RefundsRuntimeDeps): RefundsRuntime {
  const relay = createOutboxRelay({
    store: deps.refunds,
    bus: deps.bus,
    clock: deps.clock,
    logger: deps.logger.child({ component: "outbox-relay" }),
    backlog: outboxBacklogReporter("refunds", deps.clock),
    ...(deps.subjectPrefix !== undefined ? { subjectPrefix: deps.subjectPrefix } : {}),
    ...(deps.outboxPollIntervalMs !== undefined ? { pollIntervalMs: deps.outboxPollIntervalMs } : {}),
  });
  let subscription: EventSubscription | undefined;
  return {
    relay,
    wake: () => relay.wake(),
    async start() {
      if (subscription) return;
      const logger = deps.logger.child({ component: "paid-sessions" });
      subscription = await subscribeToPaidSessions({
        bus: deps.bus,
        clock: deps.clock,
        logger,
        learn: (record) => learnPaidSession({ paidSessions: deps.paidSessions, logger }, record),
        ...(deps.subjectPrefix !== undefined ? { subjectPrefix: deps.subjectPrefix } : {}),
        ...(deps.durable !== undefined ? { durable: deps.durable } : {}),
      });
      relay.start();
    },
    async stop() {
      await subscription?.stop();
      subscription = undefined;
      await relay.stop();
    },
  };
}
