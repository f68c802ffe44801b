import type { ConnectRouter } from "@connectrpc/connect";
import type { Acquirer } from "@gateway/acquirer";
import type { Clock, EventBus, Logger } from "@gateway/platform";
import { SessionService } from "@gateway/proto";
import { publishingInRecordedTrace } from "./adapters/events/trace-continuing-event-bus.js";
import { createOutboxRelay, type OutboxRelay } from "./app/outbox-relay.js";
import type {
  ExchangeRateProvider,
  FeePlanProvider,
  MerchantDirectory,
  OutboxSignal,
  SessionRepository,
  SessionsSettings,
  TerminalProvider,
} from "./app/ports.js";
import { createSessionServiceHandlers } from "./rpc/session-service.js";

/** The error domain in every ErrorDetail this service raises. */
export const SESSIONS_ERROR_DOMAIN = "sessions.gateway";

export interface SessionsModuleDeps {
  repo: SessionRepository;
  rates: ExchangeRateProvider;
  clock: Clock;
  logger: Logger;
  config: SessionsSettings;
  acquirer: Acquirer;
  terminals: TerminalProvider;
  fees: FeePlanProvider;
  merchants: MerchantDirectory;
  /** Told after every change that stored events: the outbox relay, so it publishes at once. */
  events?: OutboxSignal;
}

/**
 * SessionService on a Connect router, for the distributed server (main.ts) and embedded mode
 * (createInProcessTransport) alike.
 */
export function createSessionsRoutes(deps: SessionsModuleDeps): (router: ConnectRouter) => void {
  const handlers = createSessionServiceHandlers({
    repo: deps.repo,
    rates: deps.rates,
    clock: deps.clock,
    logger: deps.logger,
    settings: deps.config,
    acquirer: deps.acquirer,
    terminals: deps.terminals,
    fees: deps.fees,
    merchants: deps.merchants,
    ...(deps.events ? { outbox: deps.events } : {}),
  });
  // No per-service interceptors: Connect would replace the server's list (tracing, metrics,
  // error details) with them.
  return (router) => {
    router.service(SessionService, handlers);
  };
}

export interface SessionsModuleOptions extends Omit<SessionsModuleDeps, "events"> {
  /** Where events go: JetStream in distributed mode, the in-memory bus shared with webhooks in embedded mode. */
  eventBus: EventBus;
  /** Pause between the relay's looks at the outbox; default 200 ms. */
  outboxPollIntervalMs?: number;
}

export interface SessionsModule {
  routes: (router: ConnectRouter) => void;
  /** Not started: call `relay.start()` once serving, and `await relay.stop()` first on shutdown. */
  relay: OutboxRelay;
}

/** The service's routes and its outbox relay, wired so every stored event wakes the relay. */
export function createSessionsModule(o: SessionsModuleOptions): SessionsModule {
  const { eventBus, outboxPollIntervalMs, ...deps } = o;
  const relay = createOutboxRelay({
    store: deps.repo,
    bus: publishingInRecordedTrace(eventBus),
    clock: deps.clock,
    logger: deps.logger.child({ component: "outbox-relay" }),
    ...(outboxPollIntervalMs !== undefined ? { pollIntervalMs: outboxPollIntervalMs } : {}),
  });
  return { routes: createSessionsRoutes({ ...deps, events: relay }), relay };
}
