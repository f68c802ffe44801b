import { createClient } from "@connectrpc/connect";
import { createAccountsInterceptors, createAccountsRoutes, createMemoryAccountsRepositories, seedDemoMerchant } from "@gateway/accounts";
import { createEdgeApp } from "@gateway/edge";
import { createInProcessTransport, initTelemetry, systemClock, tracingClientInterceptor, type Clock, type ConfigOf, type Logger } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import { createAccountsRateProvider, createMemorySessionRepository, createSessionsRoutes } from "@gateway/sessions";
import type { embeddedConfigSpec } from "./embedded-config.js";

export interface EmbeddedGateway {
  url: string;
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
  const sessionsLogger = logger.child({ service: "sessions" });
  const sessions = createClient(
    SessionService,
    createInProcessTransport({
      name: "sessions",
      routes: createSessionsRoutes({
        repo: createMemorySessionRepository(),
        rates: createAccountsRateProvider(accounts),
        clock,
        logger: sessionsLogger,
        config: {
          publicBaseUrl: config.publicUrl,
          sessionLifetimeMs: config.sessionLifetimeMs,
          checkoutLinkLifetimeMs: config.checkoutLinkLifetimeMs,
        },
      }),
      logger: sessionsLogger,
      clientInterceptors,
    }),
  );

  const demo = config.demo ? await seedDemoMerchant(accountsRepos, clock, { testKey: config.demoTestKey }) : undefined;

  const app = createEdgeApp({
    accounts,
    sessions,
    logger: logger.child({ service: "edge" }),
    clock,
    config: {
      errorsUrl: config.errorsUrl ?? `${config.publicUrl}/errors`,
      adminToken: config.adminToken,
      maxBodyBytes: config.maxBodyBytes,
      authCacheTtlMs: config.authCacheTtlMs,
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    demo: demo ? { merchantId: demo.merchantId, testKey: demo.testKey } : undefined,
    close: () => app.close(),
  };
}
