import { createClient } from "@connectrpc/connect";
import { createAccountsInterceptors, createAccountsRoutes, seedDemoMerchant } from "@gateway/accounts";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import {
  createEpgAcquirer,
  DEFAULT_SIMULATOR_CREDENTIALS,
  simulatorTerminalBaseUrl,
} from "@gateway/acquirer";
import { createEdgeApp, createEdgeRateLimiting } from "@gateway/edge";
import { createEpgSimulator } from "@gateway/epg-simulator";
import {
  type Clock,
  type ConfigOf,
  createInProcessTransport,
  defaultPublicUrl,
  InProcessLiveEventFeed,
  initTelemetry,
  type Logger,
  newId,
  startManagementServer,
  startMemoryRetention,
  systemClock,
} from "@gateway/platform";
import {
  AccountsService,
  ApiKeysService,
  AuditLogService,
  BusinessVerificationService,
  DashboardUsersService,
  ExchangeRatesService,
  RefundService,
  SessionRefundsService,
  SessionService,
  WebhookEndpointsService,
  WebhookService,
} from "@gateway/proto";
import { createRefundsRoutes, createRefundsRuntime, createSessionsPaidSessionLookup } from "@gateway/refunds";
import {
  createAccountsFeePlanProvider,
  createAccountsMerchantDirectory,
  createAccountsRateProvider,
  createSessionsModule,
} from "@gateway/sessions";
import {
  addressPolicyFromConfig,
  createHttpDeliverer,
  createSigningWebhookSender,
  createWebhooksRoutes,
  createWebhooksRuntime,
  webhooksSettingsFromConfig,
} from "@gateway/webhooks";
import type { embeddedConfigSpec } from "./embedded-config.js";
import { type EmbeddedStores, openEmbeddedStores } from "./embedded-stores.js";

export interface EmbeddedGateway {
  url: string;
  /** The management listener (GET /metrics of every service in this process). */
  managementUrl: string;
  demo?: { merchantId: string; testKey: string };
  /** Where the data lives: "memory" (lost at exit), "mongodb" or "mongodb+nats". */
  storage: EmbeddedStores["kind"];
  /** How many sessions memory holds now (bounded by GATEWAY_MEMORY_RETENTION); 0 on MongoDB. */
  sessionsInMemory(): number;
  close(): Promise<void>;
}

/**
 * Every service in one process: the same route functions the distributed services serve,
 * wired through Connect's in-memory router transport behind the same server interceptors
 * (tracing, metrics, error details), with in-memory stores, or with MONGODB_URL the Mongo
 * adapters (and NATS_URL: JetStream), so data, sweeps, retries and outboxes survive restarts.
 * The in-process transport carries no service tokens: there is no network between the caller
 * and the service, so the caller check of distributed mode is bypassed here, explicitly.
 */
export async function startEmbeddedGateway(
  config: ConfigOf<typeof embeddedConfigSpec>,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<EmbeddedGateway> {
  assertRetentionCoversLifetimes(config);
  initTelemetry({ serviceName: "gateway" });
  const publicUrl = config.publicUrl ?? defaultPublicUrl(config.host, config.port);
  const accountsLogger = logger.child({ service: "accounts" });
  const stores = await openEmbeddedStores(
    {
      mongodbUrl: config.mongodbUrl,
      mongodbDatabasePrefix: config.mongodbDatabasePrefix,
      natsUrl: config.natsUrl,
      secretsKey: config.secretsKey,
      demo: config.demo,
    },
    clock,
    logger,
  );
  const accountsRepos = stores.accounts;
  const accountsTransport = createInProcessTransport({
    name: "accounts",
    routes: createAccountsRoutes({ repos: accountsRepos, clock, logger: accountsLogger }),
    logger: accountsLogger,
    interceptors: createAccountsInterceptors(accountsLogger),
  });
  const accounts = createClient(AccountsService, accountsTransport);
  const dashboardUsers = createClient(DashboardUsersService, accountsTransport);
  const exchangeRates = createClient(ExchangeRatesService, accountsTransport);
  const apiKeys = createClient(ApiKeysService, accountsTransport);
  const businessVerification = createClient(BusinessVerificationService, accountsTransport);
  const auditLog = createClient(AuditLogService, accountsTransport);
  // Sessions and refunds both call the acquirer with the merchant's terminal from accounts.
  const terminals = createAccountsTerminalProvider(accounts);
  // One event bus: the sessions outbox relay publishes, the webhooks service consumes.
  const eventBus = stores.bus;
  const sessionsLogger = logger.child({ service: "sessions" });
  const sessionsModule = createSessionsModule({
    repo: stores.sessions,
    rates: createAccountsRateProvider(accounts),
    acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
    terminals,
    fees: createAccountsFeePlanProvider(accounts),
    merchants: createAccountsMerchantDirectory(accounts),
    eventBus,
    clock,
    logger: sessionsLogger,
    config: {
      publicBaseUrl: publicUrl,
      sessionLifetimeMs: config.sessionLifetimeMs,
      checkoutLinkLifetimeMs: config.checkoutLinkLifetimeMs,
      checkoutLinkLimit: config.checkoutLinkLimit,
      acquirerTimeoutMs: config.acquirerTimeoutMs,
      reconcileIntervalMs: config.reconcileIntervalMs,
    },
    sweepLocks: stores.sweepLocks,
    sweepIntervalMs: config.sweepIntervalMs,
  });
  const sessions = createClient(
    SessionService,
    createInProcessTransport({
      name: "sessions",
      routes: sessionsModule.routes,
      logger: sessionsLogger,
    }),
  );

  const webhooksLogger = logger.child({ service: "webhooks" });
  const webhookStores = stores.webhooks;
  const webhookSettings = webhooksSettingsFromConfig(config);
  const deliverer = createHttpDeliverer(addressPolicyFromConfig(config));
  // One process: the webhooks runtime hands test-mode events straight to the edge's `listen` streams.
  const liveEvents = new InProcessLiveEventFeed();
  const webhooksRuntime = createWebhooksRuntime({
    stores: webhookStores,
    bus: eventBus,
    sender: createSigningWebhookSender(deliverer),
    clock,
    logger: webhooksLogger,
    settings: webhookSettings,
    liveFeed: liveEvents,
  });
  const webhooksTransport = createInProcessTransport({
    name: "webhooks",
    routes: createWebhooksRoutes({
      stores: webhookStores,
      clock,
      logger: webhooksLogger,
      settings: webhookSettings,
      wake: () => webhooksRuntime.wake(),
    }),
    logger: webhooksLogger,
  });
  const webhooks = createClient(WebhookService, webhooksTransport);
  const webhookEndpoints = createClient(WebhookEndpointsService, webhooksTransport);

  const refundsLogger = logger.child({ service: "refunds" });
  const refundStore = stores.refunds;
  const paidSessions = stores.paidSessions;
  // Publishes refund events on the shared bus and learns paid sessions from it.
  const refundsRuntime = createRefundsRuntime({
    refunds: refundStore,
    paidSessions,
    bus: eventBus,
    clock,
    logger: refundsLogger,
  });
  const refundsTransport = createInProcessTransport({
    name: "refunds",
    routes: createRefundsRoutes({
      sessions: createSessionsPaidSessionLookup(sessions),
      paidSessions,
      terminals,
      ledger: stores.ledger,
      refunds: refundStore,
      acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
      outbox: refundsRuntime,
      clock,
      newId,
      logger: refundsLogger,
    }),
    logger: refundsLogger,
  });
  const refunds = createClient(RefundService, refundsTransport);
  const sessionRefunds = createClient(SessionRefundsService, refundsTransport);

  // The test-mode acquirer, mounted by the edge under /epg/: test terminals point at it.
  const simulator = createEpgSimulator({
    clock,
    publicUrl,
    callbackUrl: `${publicUrl}/checkout/callback`,
    logger: logger.child({ service: "epg-simulator" }),
  });
  const demoTerminal = { baseUrl: simulatorTerminalBaseUrl(publicUrl), ...DEFAULT_SIMULATOR_CREDENTIALS[0]! };

  const demo = config.demo
    ? await seedDemoMerchant(accountsRepos, clock, {
        testKey: config.demoTestKey,
        testTerminal: demoTerminal,
      })
    : undefined;

  const edgeLogger = logger.child({ service: "edge" });
  // In-memory budgets: one process is one replica.
  const rateLimiting = await createEdgeRateLimiting({ policy: config.rateLimits, clock, logger: edgeLogger });
  const app = createEdgeApp({
    liveEvents,
    accounts,
    dashboardUsers,
    sessions,
    webhooks,
    refunds,
    exchangeRates,
    sessionRefunds,
    apiKeys,
    businessVerification,
    auditLog,
    webhookEndpoints,
    rateLimiter: rateLimiting.limiter,
    epgSimulator: simulator,
    logger: edgeLogger,
    clock,
    config: {
      errorsUrl: config.errorsUrl ?? `${publicUrl}/errors`,
      adminToken: config.adminToken,
      maxBodyBytes: config.maxBodyBytes,
      authCacheTtlMs: config.authCacheTtlMs,
      checkout: { publicUrl, csrfSecret: config.csrfSecret },
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const management = await startManagementServer({
    name: "gateway",
    host: config.host,
    port: config.managementPort,
    logger,
  });
  await webhooksRuntime.start();
  await refundsRuntime.start();
  sessionsModule.relay.start();
  sessionsModule.sweeper.start();
  // In memory, records past the retention window leave (docs/decisions.md#process-lifecycle);
  // on MongoDB the data is meant to be kept.
  const memory = stores.memory;
  const retention = memory
    ? startMemoryRetention({
        retentionMs: config.memoryRetentionMs,
        intervalMs: Math.max(1_000, Math.min(config.memoryRetentionMs / 4, RETENTION_INTERVAL_MS)),
        clock,
        logger,
        stores: [
          { name: "sessions", forgetOlderThan: (cutoff) => memory.sessions.forgetOlderThan(cutoff) },
          {
            name: "webhook deliveries",
            forgetOlderThan: (cutoff) => memory.deliveries.forgetOlderThan(cutoff),
          },
          { name: "webhook events", forgetOlderThan: (cutoff) => memory.events.forgetOlderThan(cutoff) },
          { name: "refunds", forgetOlderThan: (cutoff) => memory.refunds.forgetOlderThan(cutoff) },
          // A paid session's ledger goes with its record: its session is gone, so no refund can follow.
          {
            name: "paid sessions",
            forgetOlderThan: (cutoff) =>
              memory.ledger.forgetSessions(memory.paidSessions.forgetOlderThan(cutoff)),
          },
        ],
      })
    : undefined;
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    managementUrl: management.url,
    demo: demo ? { merchantId: demo.merchantId, testKey: demo.testKey } : undefined,
    storage: stores.kind,
    sessionsInMemory: () => memory?.sessions.size ?? 0,
    close: async () => {
      retention?.stop();
      await sessionsModule.sweeper.stop();
      await sessionsModule.relay.stop();
      await app.close();
      await management.close();
      await refundsRuntime.stop();
      await webhooksRuntime.stop({ graceMs: 2_000 });
      deliverer.close();
      await rateLimiting.close();
      await simulator.stop();
      await stores.close();
    },
  };
}

/** How often the retention pass runs (more often when the window itself is shorter). */
const RETENTION_INTERVAL_MS = 60_000;

/**
 * The retention window must outlive everything that still needs a record: a session's whole
 * lifetime, then every webhook attempt of its last event (each retry wait plus a POST timeout).
 */
function assertRetentionCoversLifetimes(config: ConfigOf<typeof embeddedConfigSpec>): void {
  const retries = config.retryScheduleMs;
  const minimumMs =
    config.sessionLifetimeMs +
    retries.reduce((sum, wait) => sum + wait, 0) +
    (retries.length + 1) * config.timeoutMs;
  if (config.memoryRetentionMs < minimumMs) {
    throw new Error(
      `GATEWAY_MEMORY_RETENTION (${config.memoryRetentionMs} ms) must be at least GATEWAY_SESSION_LIFETIME plus the whole ` +
        `GATEWAY_WEBHOOK_RETRY_SCHEDULE and its POST timeouts (${minimumMs} ms)`,
    );
  }
}
