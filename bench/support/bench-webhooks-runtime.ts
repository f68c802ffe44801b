// The webhooks runtime as the webhooks process runs it (Mongo stores with endpoints remembered
// between changes, JetStream bus, signing HTTP sender), for the webhook benchmarks: one hour-long
// retry, a 1 s poll, 16 sends at once.
import { createLogger, type EventBus, type NatsConnection, systemClock } from "@gateway/platform";
import { createSigningWebhookSender } from "../../services/webhooks/src/adapters/delivery/signing-webhook-sender.js";
import { natsEndpointChangeNotices } from "../../services/webhooks/src/adapters/events/nats-endpoint-change-notices.js";
import { createHttpDeliverer } from "../../services/webhooks/src/adapters/http/index.js";
import type { WebhooksStores } from "../../services/webhooks/src/app/ports.js";
import { rememberEndpoints } from "../../services/webhooks/src/app/remembered-endpoints.js";
import { createWebhooksRuntime } from "../../services/webhooks/src/webhooks-module.js";

export async function startBenchWebhooksRuntime(o: {
  stores: WebhooksStores;
  bus: EventBus;
  /** Where endpoint changes are announced, as between webhooks replicas. */
  nc: NatsConnection;
  subjectPrefix: string;
  durable: string;
}): Promise<{ wake(): void; stop(): Promise<void> }> {
  const deliverer = createHttpDeliverer({ allowPrivate: true, allowCidrs: [] });
  const logger = createLogger({ service: "webhooks-bench", level: "silent" });
  const endpoints = rememberEndpoints(o.stores.endpoints, {
    clock: systemClock,
    notices: natsEndpointChangeNotices(o.nc, logger),
  });
  const runtime = createWebhooksRuntime({
    stores: { ...o.stores, endpoints },
    bus: o.bus,
    sender: createSigningWebhookSender(deliverer),
    clock: systemClock,
    logger,
    settings: {
      timeoutMs: 10_000,
      retryScheduleMs: [60_000],
      secretOverlapMs: 0,
      pollIntervalMs: 1_000,
      concurrency: 16,
    },
    subjectPrefix: o.subjectPrefix,
    durable: o.durable,
  });
  await runtime.start();
  return {
    wake: () => runtime.wake(),
    async stop() {
      await runtime.stop({ graceMs: 5_000 });
      endpoints.close();
      deliverer.close();
    },
  };
}
