// The refunds service in distributed mode: config -> Mongo, NATS -> gRPC clients -> server -> runtime.
import { createClient } from "@connectrpc/connect";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import { createEpgAcquirer } from "@gateway/acquirer";
import {
  newId,
  pingMongo,
  pingNats,
  readConfigOrExit,
  runService,
  serveGrpcService,
  serviceTransport,
  systemClock,
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

    const keys = config.serviceAuthKeys;
    await serveGrpcService(
      { logger, onStop },
      {
        name: "refunds",
        config,
        routes: createRefundsRoutes({
          sessions: createSessionsPaidSessionLookup(
            createClient(SessionService, serviceTransport(config.sessionsUrl, "sessions", keys)),
          ),
          paidSessions,
          terminals: createAccountsTerminalProvider(
            createClient(AccountsService, serviceTransport(config.accountsUrl, "accounts", keys)),
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
      },
    );
    await runtime.start();
    // The runtime first: an event being recorded and a relay look in progress finish before their stores close.
    onStop("runtime", () => runtime.stop());
  },
});
