import { createClient } from "@connectrpc/connect";
import { createAccountsInterceptors, createAccountsRoutes, createMemoryAccountsRepositories, seedDemoMerchant } from "@gateway/accounts";
import { createEpgAcquirer, DEFAULT_SIMULATOR_CREDENTIALS, simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { createEpgSimulator } from "@gateway/epg-simulator";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import { createEdgeApp, createEdgeRateLimiting } from "@gateway/edge";
import {
  createInProcessTransport,
  InMemoryEventBus,
  initTelemetry,
  newId,
  startManagementServer,
  systemClock,
  tracingClientInterceptor,
  type Clock,
  type ConfigOf,
  type Logger,
} from "@gateway/platform";
import { AccountsService, RefundService, SessionService, WebhookService } from "@gateway/proto";
import {
  createRefundsRoutes,
  createRefundsRuntime,
  createSessionsPaidSessionLookup,
  InMemoryBalanceLedger,
  InMemoryPaidSessionStore,
  InMemoryRefundRepository,
} from "@gateway/refunds";
import {
  addressPolicyFromConfig,
  createHttpDeliverer,
  createMemoryWebhooksStores,
  createSigningWebhookSender,
  createWebhooksRoutes,
  createWebhooksRuntime,
  webhooksSettingsFromConfig,
} from "@gateway/webhooks";
import {
  createAccountsFeePlanProvider,
  createAccountsMerchantDirectory,
  createAccountsRateProvider,
  createMemorySessionRepository,
  InMemorySweepLocks,
  createSessionsModule,
} from "@gateway/sessions";
import type { embeddedConfigSpec } from "./embedded-config.js";

export interface EmbeddedGateway {
  url: string;
  /** The management listener (GET /metrics of every service in this process). */
  managementUrl: string;
  demo?: { merchantId: string; testKey: string };
  close(): Promise<void>;
}

/**
 * Every service in one process: the same route functions the distributed services serve,
 * wired through Connect's in-memory router transport behind the same server interceptors
 * (tracing, metrics, error details), with in-memory stores.
 */
export async function startEmbeddedGateway(
  config: ConfigOf<typeof embeddedConfigSpec>,
  logger: Logger,
  clock: Clock = systemClock,
): Promise<EmbeddedGateway> {
  initTelemetry({ serviceName: "gateway" });
  const clientInterceptors = [tracingClientInterceptor()];
  const accountsLogger = logger.child({ service: "accounts" });
  const accountsRepos = createMemoryAccountsRepositories();
  const accounts = createClient(
    AccountsService,
    createInProcessTransport({
      name: "accounts",
      routes: createAccountsRoutes({ repos: accountsRepos, clock, logger: accountsLogger }),
      logger: accountsLogger,
      interceptors: createAccountsInterceptors(accountsLogger),
      clientInterceptors,
    }),
  );
  // Sessions and refunds both call the acquirer with the merchant's terminal from accounts.
  const terminals = createAccountsTerminalProvider(accounts);
  // One in-process event bus: the sessions outbox relay publishes, the webhooks service consumes.
  const eventBus = new InMemoryEventBus({ clock });
  const sessionsLogger = logger.child({ service: "sessions" });
  const sessionsModule = createSessionsModule({
    repo: createMemorySessionRepository(),
    rates: createAccountsRateProvider(accounts),
    acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
    terminals,
    fees: createAccountsFeePlanProvider(accounts),
    merchants: createAccountsMerchantDirectory(accounts),
    eventBus,
    clock,
    logger: sessionsLogger,
    config: {
      publicBaseUrl: config.publicUrl,
      sessionLifetimeMs: config.sessionLifetimeMs,
      checkoutLinkLifetimeMs: config.checkoutLinkLifetimeMs,
      checkoutLinkLimit: config.checkoutLinkLimit,
      acquirerTimeoutMs: config.acquirerTimeoutMs,
      reconcileIntervalMs: config.reconcileIntervalMs,
    },
    sweepLocks: new InMemorySweepLocks(),
    sweepIntervalMs: config.sweepIntervalMs,
  });
  const sessions = createClient(
    SessionService,
    createInProcessTransport({ name: "sessions", routes: sessionsModule.routes, logger: sessionsLogger, clientInterceptors }),
  );

  const webhooksLogger = logger.child({ service: "webhooks" });
  const webhookStores = createMemoryWebhooksStores();
  const webhookSettings = webhooksSettingsFromConfig(config);
  const deliverer = createHttpDeliverer(addressPolicyFromConfig(config));
  const webhooksRuntime = createWebhooksRuntime({
    stores: webhookStores,
    bus: eventBus,
    sender: createSigningWebhookSender(deliverer),
    clock,
    logger: webhooksLogger,
    settings: webhookSettings,
  });
  const webhooks = createClient(
    WebhookService,
    createInProcessTransport({
      name: "webhooks",
      routes: createWebhooksRoutes({ stores: webhookStores, clock, logger: webhooksLogger, settings: webhookSettings, wake: () => webhooksRuntime.wake() }),
      logger: webhooksLogger,
      clientInterceptors,
    }),
  );

  const refundsLogger = logger.child({ service: "refunds" });
  const refundStore = new InMemoryRefundRepository();
  const paidSessions = new InMemoryPaidSessionStore();
  // Publishes refund events on the shared bus and learns paid sessions from it.
  const refundsRuntime = createRefundsRuntime({ refunds: refundStore, paidSessions, bus: eventBus, clock, logger: refundsLogger });
  const refunds = createClient(
    RefundService,
    createInProcessTransport({
      name: "refunds",
      routes: createRefundsRoutes({
        sessions: createSessionsPaidSessionLookup(sessions),
        paidSessions,
        terminals,
        ledger: new InMemoryBalanceLedger(),
        refunds: refundStore,
        acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
        outbox: refundsRuntime,
        clock,
        newId,
        logger: refundsLogger,
      }),
      logger: refundsLogger,
      clientInterceptors,
    }),
  );

  // The test-mode acquirer, mounted by the edge under /epg/: test terminals point at it.
  const simulator = createEpgSimulator({
    clock,
    publicUrl: config.publicUrl,
    callbackUrl: `${config.publicUrl}/checkout/callback`,
    logger: logger.child({ service: "epg-simulator" }),
  });
  const demoTerminal = { baseUrl: simulatorTerminalBaseUrl(config.publicUrl), ...DEFAULT_SIMULATOR_CREDENTIALS[0]! };

  const demo = config.demo ? await seedDemoMerchant(accountsRepos, clock, { testKey: config.demoTestKey, testTerminal: demoTerminal }) : undefined;

  const edgeLogger = logger.child({ service: "edge" });
  // In-memory budgets: one process is one replica.
  const rateLimiting = await createEdgeRateLimiting({ policy: config.rateLimits, clock, logger: edgeLogger });
  const app = createEdgeApp({
    accounts,
    sessions,
    webhooks,
    refunds,
    rateLimiter: rateLimiting.limiter,
    epgSimulator: simulator,
    logger: edgeLogger,
    clock,
    config: {
      errorsUrl: config.errorsUrl ?? `${config.publicUrl}/errors`,
      adminToken: config.adminToken,
      maxBodyBytes: config.maxBodyBytes,
      authCacheTtlMs: config.authCacheTtlMs,
      checkout: { publicUrl: config.publicUrl, csrfSecret: config.csrfSecret },
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const management = await startManagementServer({ name: "gateway", host: config.host, port: config.managementPort, logger });
  await webhooksRuntime.start();
  await refundsRuntime.start();
  sessionsModule.relay.start();
  sessionsModule.sweeper.start();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    managementUrl: management.url,
    demo: demo ? { merchantId: demo.merchantId, testKey: demo.testKey } : undefined,
    close: async () => {
      await sessionsModule.sweeper.stop();
      await sessionsModule.relay.stop();
      await app.close();
      await management.close();
      await refundsRuntime.stop();
      await webhooksRuntime.stop({ graceMs: 2_000 });
      deliverer.close();
      await rateLimiting.close();
      await simulator.stop();
      await eventBus.close();
    },
  };
}
