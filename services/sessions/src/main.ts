import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createEpgAcquirer } from "@gateway/acquirer";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import {
  connectMongo,
  connectNats,
  createJetStreamEventBus,
  createLogger,
  ensureEventsStream,
  initTelemetry,
  installGracefulShutdown,
  pingMongo,
  pingNats,
  readConfigOrExit,
  startManagementServer,
  startServiceServer,
  systemClock,
  tracingClientInterceptor,
} from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import { createAccountsFeePlanProvider } from "./adapters/accounts/accounts-fee-plan-provider.js";
import { createAccountsMerchantDirectory } from "./adapters/accounts/accounts-merchant-directory.js";
import { createAccountsRateProvider } from "./adapters/accounts/accounts-rate-provider.js";
import { createMongoSessionRepository } from "./adapters/mongo/mongo-session-repository.js";
import { createMongoSweepLocks } from "./adapters/mongo/mongo-sweep-locks.js";
import { sessionsConfigSpec } from "./config.js";
import { createSessionsModule } from "./sessions-module.js";

const SERVICE_NAME = "sessions";


async function main(): Promise<void> {
  const config = readConfigOrExit(sessionsConfigSpec);
  const telemetry = initTelemetry({ serviceName: SERVICE_NAME });
  const logger = createLogger({ service: SERVICE_NAME, level: config.logLevel });

  const mongo = await connectMongo(config.mongodbUrl, SERVICE_NAME);
  const db = mongo.db(config.mongodbDatabase);
  const repo = await createMongoSessionRepository(db);

  const nats = await connectNats(config.natsUrl, SERVICE_NAME, logger);
  await ensureEventsStream(nats);
  const eventBus = await createJetStreamEventBus({ nc: nats, logger });

  // gRPC over HTTP/2 (the gRPC transport always speaks HTTP/2).
  const accounts = createClient(
    AccountsService,
    createGrpcTransport({ baseUrl: config.accountsUrl, interceptors: [tracingClientInterceptor()] }),
  );

  const sessions = createSessionsModule({
    repo,
    rates: createAccountsRateProvider(accounts),
    clock: systemClock,
    logger,
    config: {
      publicBaseUrl: config.publicBaseUrl,
      sessionLifetimeMs: config.sessionLifetimeMs,
      checkoutLinkLifetimeMs: config.checkoutLinkLifetimeMs,
      checkoutLinkLimit: config.checkoutLinkLimit,
      acquirerTimeoutMs: config.acquirerTimeoutMs,
      reconcileIntervalMs: config.reconcileIntervalMs,
    },
    acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
    terminals: createAccountsTerminalProvider(accounts),
    fees: createAccountsFeePlanProvider(accounts),
    merchants: createAccountsMerchantDirectory(accounts),
    eventBus,
    outboxPollIntervalMs: config.outboxPollIntervalMs,
    sweepLocks: await createMongoSweepLocks(db),
    sweepIntervalMs: config.sweepIntervalMs,
    sweepLeaseMs: config.sweepLeaseMs,
  });

  const management = await startManagementServer({ name: SERVICE_NAME, host: config.host, port: config.managementPort, logger });
  const server = await startServiceServer({
    name: SERVICE_NAME,
    host: config.host,
    port: config.port,
    routes: sessions.routes,
    readiness: [
      { name: "mongo", check: () => pingMongo(db) },
      { name: "nats", check: () => pingNats(nats) },
    ],
    logger,
  });
  sessions.relay.start();
  sessions.sweeper.start();

  installGracefulShutdown(logger, [
    // The relay first: a look in progress finishes (publish, then mark) before its stores close.
    // The sweeper first: its last sweep may store events for the relay to publish.
    { name: "sweeper", run: () => sessions.sweeper.stop() },
    { name: "outbox-relay", run: () => sessions.relay.stop() },
    { name: "server", run: () => server.close() },
    { name: "management", run: () => management.close() },
    { name: "events", run: () => eventBus.close() },
    { name: "nats", run: () => nats.drain() },
    { name: "mongo", run: () => mongo.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  // Start-up failed (database unreachable…): say why on stderr and stop.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`sessions failed to start: ${message}\n`);
  process.exit(1);
});
