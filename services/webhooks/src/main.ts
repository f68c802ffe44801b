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
} from "@gateway/platform";
import { createSigningWebhookSender } from "./adapters/delivery/signing-webhook-sender.js";
import { createHttpDeliverer } from "./adapters/http/index.js";
import { createMongoWebhooksStores } from "./adapters/mongo/create-mongo-webhooks-stores.js";
import { addressPolicyFromConfig, webhooksConfigSpec, webhooksSettingsFromConfig } from "./config.js";
import { createSecretBox } from "./domain/secret-box.js";
import { createWebhooksRoutes, createWebhooksRuntime } from "./webhooks-module.js";

const SERVICE_NAME = "webhooks";
/** In-flight POSTs get this long at shutdown (bounded below the platform's 15 s per step). */
const MAX_DRAIN_MS = 12_000;


async function main(): Promise<void> {
  const config = readConfigOrExit(webhooksConfigSpec);
  const telemetry = initTelemetry({ serviceName: SERVICE_NAME });
  const logger = createLogger({ service: SERVICE_NAME, level: config.logLevel });

  const mongo = await connectMongo(config.mongodbUrl, SERVICE_NAME);
  const db = mongo.db(config.mongodbDatabase);
  const stores = await createMongoWebhooksStores(db, createSecretBox(config.secretsKey, config.previousSecretsKeys ?? []));

  const nc = await connectNats(config.natsUrl, SERVICE_NAME, logger);
  await ensureEventsStream(nc);
  const bus = await createJetStreamEventBus({ nc, logger });

  if (config.allowPrivate) logger.warn("GATEWAY_WEBHOOK_ALLOW_PRIVATE is on: webhooks may reach private and loopback addresses (never in production)");
  const deliverer = createHttpDeliverer(addressPolicyFromConfig(config));
  const settings = webhooksSettingsFromConfig(config);
  const runtime = createWebhooksRuntime({ stores, bus, sender: createSigningWebhookSender(deliverer), clock: systemClock, logger, settings });

  const management = await startManagementServer({ name: SERVICE_NAME, host: config.host, port: config.managementPort, logger });
  // startServiceServer logs the URL it listens on.
  const server = await startServiceServer({
    name: SERVICE_NAME,
    host: config.host,
    port: config.port,
    routes: createWebhooksRoutes({ stores, clock: systemClock, logger, settings, wake: () => runtime.wake() }),
    readiness: [
      { name: "mongo", check: () => pingMongo(db) },
      { name: "nats", check: () => pingNats(nc) },
    ],
    logger,
  });
  await runtime.start();
  logger.info({ retryScheduleMs: config.retryScheduleMs, timeoutMs: config.timeoutMs }, "webhooks consuming session and refund events");

  installGracefulShutdown(logger, [
    // Stop consuming, stop claiming, let POSTs in flight finish (bounded); the rest is re-sent after its lease.
    { name: "deliveries", run: () => runtime.stop({ graceMs: Math.min(config.timeoutMs + 1_000, MAX_DRAIN_MS) }) },
    { name: "server", run: () => server.close() },
    { name: "management", run: () => management.close() },
    { name: "deliverer", run: async () => deliverer.close() },
    { name: "events", run: () => bus.close() },
    { name: "nats", run: () => nc.drain() },
    { name: "mongo", run: () => mongo.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  // Start-up failed (database or NATS unreachable…): say why on stderr and stop.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`webhooks failed to start: ${message}\n`);
  process.exit(1);
});
