import { createClient } from "@connectrpc/connect";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import { createEpgAcquirer } from "@gateway/acquirer";
import {
  pingMongo,
  pingNats,
  readConfigOrExit,
  runService,
  serveGrpcService,
  serviceTransport,
  systemClock,
} from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import { createAccountsFeePlanProvider } from "./adapters/accounts/accounts-fee-plan-provider.js";
import { createAccountsMerchantDirectory } from "./adapters/accounts/accounts-merchant-directory.js";
import { createAccountsRateProvider } from "./adapters/accounts/accounts-rate-provider.js";
import { createMongoSessionRepository } from "./adapters/mongo/mongo-session-repository.js";
import { createMongoSweepLocks } from "./adapters/mongo/mongo-sweep-locks.js";
import { sessionsConfigSpec } from "./config.js";
import { createSessionsModule } from "./sessions-module.js";

runService({
  name: "sessions",
  readConfig: () => readConfigOrExit(sessionsConfigSpec),
  async start({ config, logger, onStop, mongo, events }) {
    const { db } = await mongo(config.mongodbUrl, config.mongodbDatabase);
    const repo = await createMongoSessionRepository(db);

    const { nc: nats, bus: eventBus } = await events(config.natsUrl, { replicas: config.jetstreamReplicas });

    const accounts = createClient(
      AccountsService,
      serviceTransport(config.accountsUrl, "accounts", config.serviceAuthKeys),
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

    await serveGrpcService(
      { logger, onStop },
      {
        name: "sessions",
        config,
        routes: sessions.routes,
        readiness: [
          { name: "mongo", check: () => pingMongo(db) },
          { name: "nats", check: () => pingNats(nats) },
        ],
      },
    );
    // Stopped before the server: a relay look in progress finishes (publish, then mark) before
    // its stores close, and the sweeper stops first since its last sweep may store events to relay.
    sessions.relay.start();
    onStop("outbox-relay", () => sessions.relay.stop());
    sessions.sweeper.start();
    onStop("sweeper", () => sessions.sweeper.stop());
  },
});
