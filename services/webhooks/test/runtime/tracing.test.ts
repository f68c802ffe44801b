import { InMemoryEventBus, initTelemetry, systemClock, type Telemetry, TRACER_NAME } from "@gateway/platform";
import { waitFor } from "@gateway/testkit";
import { context, SpanKind, trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigningWebhookSender } from "../../src/adapters/delivery/signing-webhook-sender.js";
import { createHttpDeliverer } from "../../src/adapters/http/index.js";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import { setEndpoint } from "../../src/app/webhook-endpoints.js";
import { createWebhooksRuntime } from "../../src/webhooks-module.js";
import { startReceiver } from "../http/test-receiver.js";
import { eventFacts, newScope, publishedEvent } from "../support/fixtures.js";
import { captureLogger } from "../support/silent-logger.js";

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
beforeAll(() => {
  telemetry = initTelemetry({ serviceName: "webhooks-tracing-test", exporter });
});
afterAll(async () => {
  await telemetry.shutdown();
});

describe("tracing webhooks", () => {
  it("when a traced payment publishes an event, then the webhook POST is a client span of the same trace, and no trace header reaches the merchant", async () => {
    const bus = new InMemoryEventBus();
    const stores = createMemoryWebhooksStores();
    const deliverer = createHttpDeliverer({ allowPrivate: true, allowCidrs: [] });
    const receiver = await startReceiver();
    const runtime = createWebhooksRuntime({
      stores,
      bus,
      sender: createSigningWebhookSender(deliverer),
      clock: systemClock,
      logger: captureLogger().logger,
      settings: {
        timeoutMs: 1_000,
        retryScheduleMs: [],
        secretOverlapMs: 0,
        pollIntervalMs: 25,
        concurrency: 2,
      },
    });
    try {
      await runtime.start();
      const facts = eventFacts("session.succeeded", { scope: newScope() });
      await setEndpoint(
        { endpoints: stores.endpoints, clock: systemClock },
        facts.session.scope,
        receiver.url,
      );
      const payment = trace.getTracer(TRACER_NAME).startSpan("settle payment");
      await context.with(trace.setSpan(context.active(), payment), () => bus.publish(publishedEvent(facts)));
      payment.end();

      await waitFor(() => receiver.requests.length === 1);
      const post = await waitFor(() =>
        exporter.getFinishedSpans().find((s) => s.name === "webhook POST session.succeeded"),
      );
      expect(post.kind).toBe(SpanKind.CLIENT);
      expect(post.spanContext().traceId).toBe(payment.spanContext().traceId);
      expect(post.attributes).toMatchObject({
        "http.response.status_code": 200,
        "gateway.webhook.id": facts.eventId,
        "server.address": `127.0.0.1:${receiver.port}`,
      });
      expect(receiver.requests[0]?.headers.traceparent).toBeUndefined();
    } finally {
      await runtime.stop({ graceMs: 1_000 });
      deliverer.close();
      await receiver.close();
      await bus.close();
    }
  });
});
