import { GatewayError } from "@gateway/platform";
import { afterEach, describe, expect, it } from "vitest";
import { createSigningWebhookSender } from "../../src/adapters/delivery/signing-webhook-sender.js";
import { createHttpDeliverer } from "../../src/adapters/http/index.js";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import { DeliveryDispatcher } from "../../src/app/delivery-dispatcher.js";
import type { DeliveryRepository, WebhooksStores } from "../../src/app/ports.js";
import { firstAttemptId } from "../../src/app/record-session-event.js";
import { retryIdOf } from "../../src/app/send-attempt.js";
import { type DeliveryHarness, deliveryHarness, MINUTE } from "../support/delivery-harness.js";
import { eventFacts, newScope } from "../support/fixtures.js";
import { captureLogger } from "../support/silent-logger.js";

/** Deliveries whose next `complete` fails, as when the process dies right after queueing the retry. */
function crashOnNextComplete(stores: WebhooksStores): WebhooksStores & { armed: { crash: boolean } } {
  const armed = { crash: false };
  const inner = stores.deliveries;
  const deliveries: DeliveryRepository = Object.create(inner) as DeliveryRepository;
  deliveries.complete = async (...args) => {
    if (armed.crash) {
      armed.crash = false;
      throw new GatewayError("SERVICE_UNAVAILABLE", "simulated crash");
    }
    return inner.complete(...args);
  };
  return { ...stores, deliveries, armed };
}

describe("delivery resilience", () => {
  let h: DeliveryHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("when the outcome cannot be recorded after the retry was queued, then the attempt is re-sent after its lease and the retry is not doubled", async () => {
    const stores = crashOnNextComplete(createMemoryWebhooksStores());
    h = await deliveryHarness({ stores });
    const scope = newScope();
    await h.setEndpoint(scope);
    h.receiver.handle((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    const facts = eventFacts("session.failed", { scope });
    await h.record(facts);
    stores.armed.crash = true;
    await h.dispatcher.dispatchDue();
    expect(h.logLines.some((l) => l.includes("sent again when its lease expires"))).toBe(true);
    const first = await stores.deliveries.findById(firstAttemptId(facts.eventId));
    expect(first?.status).toBe("PENDING");
    expect(await stores.deliveries.findById(retryIdOf(first!.id))).toMatchObject({
      status: "PENDING",
      attemptNumber: 2,
    });

    // Still leased: nobody sends it again yet.
    h.clock.advance(10_000);
    expect(await h.dispatcher.dispatchDue()).toBe(0);
    // The lease (timeout 2 s + 30 s) has run out: at-least-once, it goes again.
    h.clock.advance(22_000);
    expect(await h.dispatcher.dispatchDue()).toBe(1);
    expect(h.receiver.requests).toHaveLength(2);
    const attempts = await h.history(facts.eventId);
    expect(attempts.map((a) => [a.attemptNumber, a.status]).sort()).toEqual([
      [1, "FAILED"],
      [2, "PENDING"],
    ]);
    h.clock.advance(MINUTE);
    expect(await h.dispatcher.dispatchDue()).toBe(1);
  });

  it("when two dispatchers share one store, then each due attempt is sent by exactly one of them", async () => {
    h = await deliveryHarness();
    const deliverer = createHttpDeliverer({ allowPrivate: true, allowCidrs: [] });
    const other = new DeliveryDispatcher({
      stores: h.stores,
      sender: createSigningWebhookSender(deliverer),
      clock: h.clock,
      settings: h.settings,
      logger: captureLogger().logger,
    });
    try {
      const scope = newScope();
      await h.setEndpoint(scope);
      h.receiver.handle((_req, res) => setTimeout(() => res.end("ok"), 20));
      const events = Array.from({ length: 12 }, () => eventFacts("session.succeeded", { scope }));
      for (const e of events) await h.record(e);
      const [a, b] = await Promise.all([h.dispatcher.dispatchDue(), other.dispatchDue()]);
      expect(a + b).toBe(12);
      expect(h.receiver.requests).toHaveLength(12);
      expect(new Set(h.receiver.requests.map((r) => r.headers["x-service-webhook-id"])).size).toBe(12);
    } finally {
      deliverer.close();
    }
  });
});
