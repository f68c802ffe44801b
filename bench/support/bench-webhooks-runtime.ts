// The webhooks runtime as the webhooks process runs it (Mongo stores, JetStream bus, signing HTTP
// sender), for the webhook benchmarks: one hour-long retry, a 1 s poll, 16 sends at once.
import { createLogger, type EventBus, systemClock } from "@gateway/platform";
import { createSigningWebhookSender } from "../../services/webhooks/src/adapters/delivery/signing-webhook-sender.js";
import { createHttpDeliverer } from "../../services/webhooks/src/adapters/http/index.js";
import type { WebhooksStores } from "../../services/webhooks/src/app/ports.js";
import { createWebhooksRuntime } from "../../services/webhooks/src/webhooks-module.js";

export async function startBenchWebhooksRuntime(o: {
  stores: WebhooksStores;
  bus: EventBus;
  subjectPrefix: string;
  durable: string;
}): Promise<{ wake(): void; stop(): Promise<void> }> {
  const deliverer = createHttpDeliverer({ allowPrivate: true, allowCidrs: [] });
  const runtime = createWebhooksRuntime({
    stores: o.stores,
    bus: o.bus,
    sender: createSigningWebhookSender(deliverer),
    clock: systemClock,
    logger: createLogger({ service: "webhooks-bench", level: "silent" }),
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
      deliverer.close();
    },
  };
}
