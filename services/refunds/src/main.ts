// The refunds service in distributed mode: config -> Mongo, NATS -> gRPC clients -> server -> runtime.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import { createEpgAcquirer } from "@gateway/acquirer";
import {
  newId,
  pingMongo,
  pingNats,
  readConfigOrExit,
  runService,
  serviceTokenInterceptor,
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

runService({
  name: "refunds",
  readConfig: () => readConfigOrExit(refundsConfigSpec),
  async start({ config, logger, onStop, mongo, events }) {
    const { db } = await mongo(config.mongodbUrl, config.mongodbDatabase);
    const refunds = await createMongoRefundRepository(db);
    const paidSessions = await createMongoPaidSessionStore(db);

    const { nc: nats, bus } = await events(config.natsUrl, { replicas: config.jetstreamReplicas });
    const runtime = createRefundsRuntime({
      refunds,
      paidSessions,
      bus,
      clock: systemClock,
      logger,
      outboxPollIntervalMs: config.outboxPollIntervalMs,
    });

    const grpc = (baseUrl: string, audience: "sessions" | "accounts") =>
      createGrpcTransport({
        baseUrl,
        interceptors: [
          tracingClientInterceptor(),
          serviceTokenInterceptor(config.serviceAuthKeys, audience, systemClock),
        ],
      });
    // Prometheus scrapes this port (MANAGEMENT_PORT); the service's own port serves no /metrics.
    const management = await startManagementServer({
      name: "refunds",
      host: config.host,
      port: config.managementPort,
      logger,
    });
    onStop("management", () => management.close());
    const server = await startServiceServer({
      name: "refunds",
      host: config.host,
      port: config.port,
      auth: { target: "refunds", keys: config.serviceAuthKeys },
      reflection: config.grpcReflection,
      routes: createRefundsRoutes({
        sessions: createSessionsPaidSessionLookup(
          createClient(SessionService, grpc(config.sessionsUrl, "sessions")),
        ),
        paidSessions,
        terminals: createAccountsTerminalProvider(
          createClient(AccountsService, grpc(config.accountsUrl, "accounts")),
        ),
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
    onStop("server", (remainingMs) => server.close(remainingMs));
    await runtime.start();
    // The runtime first: an event being recorded and a relay look in progress finish before their stores close.
    onStop("runtime", () => runtime.stop());
  },
});
