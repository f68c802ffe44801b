// The refunds service in distributed mode: config -> Mongo, NATS -> gRPC clients -> server -> runtime.
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
  newId,
  pingMongo,
  pingNats,
  readConfigOrExit,
  startManagementServer,
  startServiceServer,
  systemClock,
  tracingClientInterceptor,
} from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import { createMongoBalanceLedger } from "./adapters/mongo/mongo-balance-ledger.js";
import { createMongoPaidSessionStore } from "./adapters/mongo/mongo-paid-session-store.js";
import { createMongoRefundRepository } from "./adapters/mongo/mongo-refund-repository.js";
import { createSessionsPaidSessionLookup } from "./adapters/sessions/sessions-paid-session-lookup.js";
import { refundsConfigSpec } from "./config.js";
import { createRefundsRoutes, createRefundsRuntime } from "./refunds-module.js";

const SERVICE_NAME = "refunds";

async function main(): Promise<void> {
  const config = readConfigOrExit(refundsConfigSpec);
  const telemetry = initTelemetry({ serviceName: SERVICE_NAME });
  const logger = createLogger({ service: SERVICE_NAME, level: config.logLevel });
  const mongo = await connectMongo(config.mongodbUrl, SERVICE_NAME);
  const db = mongo.db(config.mongodbDatabase);
  const refunds = await createMongoRefundRepository(db);
  const paidSessions = await createMongoPaidSessionStore(db);

  const nats = await connectNats(config.natsUrl, SERVICE_NAME, logger);
  await ensureEventsStream(nats);
  const bus = await createJetStreamEventBus({ nc: nats, logger });
  const runtime = createRefundsRuntime({ refunds, paidSessions, bus, clock: systemClock, logger, outboxPollIntervalMs: config.outboxPollIntervalMs });

  const grpc = (baseUrl: string) => createGrpcTransport({ baseUrl, interceptors: [tracingClientInterceptor()] });
  const management = await startManagementServer({ name: SERVICE_NAME, host: config.host, port: config.managementPort, logger });
  const server = await startServiceServer({
    name: SERVICE_NAME,
    host: config.host,
    port: config.port,
    routes: createRefundsRoutes({
      sessions: createSessionsPaidSessionLookup(createClient(SessionService, grpc(config.sessionsUrl))),
      paidSessions,
      terminals: createAccountsTerminalProvider(createClient(AccountsService, grpc(config.accountsUrl))),
      ledger: await createMongoBalanceLedger(db),
      refunds,
      acquirer: createEpgAcquirer({ timeoutMs: config.acquirerTimeoutMs }),
      outbox: runtime,
      clock: systemClock,
      newId,
      logger,
    }),
    readiness: [
      { name: "mongo", check: () => pingMongo(db) },
      { name: "nats", check: () => pingNats(nats) },
    ],
    logger,
  });
  await runtime.start();

  installGracefulShutdown(logger, [
    // The runtime first: an event being recorded and a relay look in progress finish before their stores close.
    { name: "runtime", run: () => runtime.stop() },
    { name: "server", run: () => server.close() },
    { name: "management", run: () => management.close() },
    { name: "events", run: () => bus.close() },
    { name: "nats", run: () => nats.drain() },
    { name: "mongo", run: () => mongo.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  process.stderr.write(`refunds failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
