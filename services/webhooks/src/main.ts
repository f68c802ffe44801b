import {
  createSecretBox,
  NatsLiveEventFeed,
  pingMongo,
  pingNats,
  readConfigOrExit,
  runService,
  serveGrpcService,
  systemClock,
} from "@gateway/platform";
import { createSigningWebhookSender } from "./adapters/delivery/signing-webhook-sender.js";
import { natsEndpointChangeNotices } from "./adapters/events/nats-endpoint-change-notices.js";
import { createHttpDeliverer } from "./adapters/http/index.js";
import { createMongoWebhooksStores } from "./adapters/mongo/create-mongo-webhooks-stores.js";
import { rememberEndpoints } from "./app/remembered-endpoints.js";
import { addressPolicyFromConfig, webhooksConfigSpec, webhooksSettingsFromConfig } from "./config.js";
import { createWebhooksRoutes, createWebhooksRuntime } from "./webhooks-module.js";

/** In-flight POSTs get at most this long at shutdown; the rest is re-sent after its lease. */
const MAX_DRAIN_MS = 12_000;

runService({
  name: "webhooks",
  readConfig: () => readConfigOrExit(webhooksConfigSpec),
  async start({ config, logger, onStop, mongo, events }) {
    const { db } = await mongo(config.mongodbUrl, config.mongodbDatabase);
    const stored = await createMongoWebhooksStores(
      db,
      createSecretBox(config.secretsKey, config.previousSecretsKeys ?? []),
    );

    const { nc, bus } = await events(config.natsUrl, { replicas: config.jetstreamReplicas });
    // Every event reads its account's endpoint: remembered here, forgotten on any replica's change.
    const endpoints = rememberEndpoints(stored.endpoints, {
      clock: systemClock,
      notices: natsEndpointChangeNotices(nc, logger),
    });
    onStop("endpoint memory", async () => endpoints.close());
    const stores = { ...stored, endpoints };

    if (config.allowPrivate)
      logger.warn(
        "GATEWAY_WEBHOOK_ALLOW_PRIVATE is on: webhooks may reach private and loopback addresses (never in production)",
      );
    const deliverer = createHttpDeliverer(addressPolicyFromConfig(config));
    onStop("deliverer", async () => deliverer.close());
    const settings = webhooksSettingsFromConfig(config);
    const runtime = createWebhooksRuntime({
      stores,
      bus,
      sender: createSigningWebhookSender(deliverer),
      clock: systemClock,
      logger,
      settings,
      liveFeed: new NatsLiveEventFeed(nc, logger),
    });

    await serveGrpcService(
      { logger, onStop },
      {
        name: "webhooks",
        config,
        routes: createWebhooksRoutes({
          stores,
          clock: systemClock,
          logger,
          settings,
          wake: () => runtime.wake(),
        }),
        readiness: [
          { name: "mongo", check: () => pingMongo(db) },
          { name: "nats", check: () => pingNats(nc) },
        ],
      },
    );
    await runtime.start();
    // Stop consuming, stop claiming, let POSTs in flight finish (bounded by half the time left,
    // so the server and clients still close in time); the rest is re-sent after its lease.
    onStop("deliveries", (remainingMs) =>
      runtime.stop({ graceMs: Math.min(config.timeoutMs + 1_000, MAX_DRAIN_MS, remainingMs / 2) }),
    );
    logger.info(
      { retryScheduleMs: config.retryScheduleMs, timeoutMs: config.timeoutMs },
      "webhooks consuming session and refund events",
    );
  },
});
