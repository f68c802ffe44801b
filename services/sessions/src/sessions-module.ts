import type { ConnectRouter } from "@connectrpc/connect";
import type { Acquirer } from "@gateway/acquirer";
import { type Clock, type EventBus, type Logger, outboxBacklogReporter } from "@gateway/platform";
import { SessionService } from "@gateway/proto";
import { publishingInRecordedTrace } from "./adapters/events/trace-continuing-event-bus.js";
import { prometheusSweepObserver } from "./adapters/metrics/sweep-metrics.js";
import { createOutboxRelay, type OutboxRelay } from "./app/outbox-relay.js";
import type {
  ExchangeRateProvider,
  FeePlanProvider,
  MerchantDirectory,
  OutboxSignal,
  SessionRepository,
  SessionsSettings,
  SweepLocks,
  TerminalProvider,
} from "./app/ports.js";
import { createSessionSweeper, type SessionSweeper } from "./app/session-sweeper.js";
import {
  createSessionServiceHandlers,
  paymentDepsOf,
  type SessionServiceDeps,
} from "./rpc/session-service.js";

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

/** The service's dependencies in the handlers' words. */
function serviceDepsOf(deps: SessionsModuleDeps): SessionServiceDeps {
  return {
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
  };
}

/**
 * SessionService on a Connect router, for the distributed server (main.ts) and embedded mode
 * (createInProcessTransport) alike.
 */
export function createSessionsRoutes(deps: SessionsModuleDeps): (router: ConnectRouter) => void {
  const handlers = createSessionServiceHandlers(serviceDepsOf(deps));
  // No per-service interceptors: Connect would replace the server's list (tracing, metrics,
  // error details) with them.
  return (router) => {
    router.service(SessionService, handlers);
  };
}

export interface SessionsModuleOptions extends Omit<SessionsModuleDeps, "events"> {
  /** Where events go: JetStream in distributed mode, the in-memory bus shared with webhooks in embedded mode. */
  eventBus: EventBus;
  /** Safety-net pause between the relay's looks at the outbox (writes wake it); default 1 s. */
  outboxPollIntervalMs?: number;
  /** The sweeper's claims: MongoDB in distributed mode (shared by replicas), in memory in embedded mode. */
  sweepLocks: SweepLocks;
  /** Pause between the sweeper's looks for due sessions; default 1 s. */
  sweepIntervalMs?: number;
  /** How long one session's sweep claim lasts; default 2 min. */
  sweepLeaseMs?: number;
}

export interface SessionsModule {
  routes: (router: ConnectRouter) => void;
  /** Not started: call `relay.start()` once serving, and `await relay.stop()` first on shutdown. */
  relay: OutboxRelay;
  /** Not started: call `sweeper.start()` once serving, and `await sweeper.stop()` on shutdown. */
  sweeper: SessionSweeper;
}

/** The service's routes and its outbox relay, wired so every stored event wakes the relay. */
export function createSessionsModule(o: SessionsModuleOptions): SessionsModule {
  const { eventBus, outboxPollIntervalMs, sweepLocks, sweepIntervalMs, sweepLeaseMs, ...deps } = o;
  const relay = createOutboxRelay({
    store: deps.repo,
    bus: publishingInRecordedTrace(eventBus),
    clock: deps.clock,
    logger: deps.logger.child({ component: "outbox-relay" }),
    backlog: outboxBacklogReporter("sessions", deps.clock),
    ...(outboxPollIntervalMs !== undefined ? { pollIntervalMs: outboxPollIntervalMs } : {}),
  });
  const withRelay: SessionsModuleDeps = { ...deps, events: relay };
  const sweeper = createSessionSweeper({
    deps: paymentDepsOf(serviceDepsOf(withRelay)),
    locks: sweepLocks,
    observer: prometheusSweepObserver,
    ...(sweepIntervalMs !== undefined ? { intervalMs: sweepIntervalMs } : {}),
    ...(sweepLeaseMs !== undefined ? { leaseMs: sweepLeaseMs } : {}),
  });
  return { routes: createSessionsRoutes(withRelay), relay, sweeper };
}
