import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, type ConnectError, createClient } from "@connectrpc/connect";
import { createInProcessTransport, fromConnectError, ManualClock } from "@gateway/platform";
import { AccountScopeSchema, DeliveryStatus, WebhookEndpointsService, WebhookService } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import type { WebhooksStores } from "../../src/app/ports.js";
import { createWebhooksRoutes } from "../../src/webhooks-module.js";
import { newScope } from "../support/fixtures.js";
import { captureLogger } from "../support/silent-logger.js";

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    const e = fromConnectError(err);
    return { code: (err as ConnectError).code, reason: e.reason, fields: e.violations.map((v) => v.field) };
  }
  throw new Error("expected the call to fail");
}

describe("WebhookEndpointsService over Connect (the dashboard's webhooks page)", () => {
  let clock: ManualClock;
  let stores: WebhooksStores;
  let endpoints: Client<typeof WebhookEndpointsService>;
  let webhooks: Client<typeof WebhookService>;
  let woken: number;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    stores = createMemoryWebhooksStores();
    woken = 0;
    const { logger } = captureLogger();
    const routes = createWebhooksRoutes({
      stores,
      clock,
      logger,
      settings: { secretOverlapMs: 0 },
      wake: () => (woken += 1),
    });
    const transport = createInProcessTransport({ name: "webhooks", routes, logger });
    endpoints = createClient(WebhookEndpointsService, transport);
    webhooks = createClient(WebhookService, transport);
  });

  const scopeOf = (s: { merchantId: string; livemode: boolean }) => create(AccountScopeSchema, s);

  it("shows a secret from the start and the default subscriptions; the same secret on every read", async () => {
    const scope = scopeOf(newScope());
    const first = (await endpoints.getEndpoint({ scope })).endpoint!;
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.url).toBe("");
    expect(first.defaultSubscriptions).toBe(true);
    expect(first.enabledEvents).toEqual([
      "session.succeeded",
      "session.failed",
      "session.expired",
      "checkout.session.expired",
    ]);
    expect((await endpoints.getEndpoint({ scope })).endpoint!.secret).toBe(first.secret);
  });

  it("sets subscriptions, refusing unknown events entry by entry", async () => {
    const scope = scopeOf(newScope());
    expect(
      await failureOf(endpoints.setSubscriptions({ scope, enabledEvents: ["refund.*", "payment.done"] })),
    ).toMatchObject({
      reason: "VALIDATION_ERROR",
      fields: ["enabled_events[1]"],
    });
    const set = (
      await endpoints.setSubscriptions({ scope, enabledEvents: ["session.succeeded", "refund.*"] })
    ).endpoint!;
    expect(set).toMatchObject({
      enabledEvents: ["refund.*", "session.succeeded"],
      defaultSubscriptions: false,
    });
  });

  it("rotates with the chosen overlap: the old secret signs until then; a bad overlap changes nothing", async () => {
    const scope = scopeOf(newScope());
    const before = (await endpoints.getEndpoint({ scope })).endpoint!;
    expect((await failureOf(endpoints.rotateSecretWithOverlap({ scope, overlapSeconds: 5 }))).fields).toEqual(
      ["overlap_seconds"],
    );
    expect((await endpoints.getEndpoint({ scope })).endpoint!.secret).toBe(before.secret);
    const rotated = (await endpoints.rotateSecretWithOverlap({ scope, overlapSeconds: 3600 })).endpoint!;
    expect(rotated.secret).not.toBe(before.secret);
    expect(timestampDate(rotated.previousSecretExpiresAt!).toISOString()).toBe("2026-01-01T13:00:00.000Z");
    const stored = await stores.endpoints.find(scope);
    expect(stored?.previousSecret).toBe(before.secret);
  });

  it("sends a test event only where a URL is set; it is listed and its detail is scoped to the account", async () => {
    const scope = scopeOf(newScope());
    expect(await failureOf(endpoints.sendTestEvent({ scope }))).toMatchObject({ reason: "INVALID_STATE" });
    await webhooks.setEndpoint({ scope, url: "https://shop.example/hooks" });
    const { delivery } = await endpoints.sendTestEvent({ scope });
    expect(delivery).toMatchObject({
      event: "webhook.test",
      status: DeliveryStatus.PENDING,
      url: "https://shop.example/hooks",
    });
    expect(woken).toBe(1);
    const listed = await webhooks.listDeliveries({ scope, event: "webhook.test" });
    expect(listed.deliveries.map((d) => d.id)).toEqual([delivery!.id]);
    const detail = await endpoints.getDeliveryDetail({ scope, deliveryId: delivery!.id });
    expect(JSON.parse(detail.requestBody)).toEqual({
      id: delivery!.eventId,
      event: "webhook.test",
      created_at: "2026-01-01T12:00:00.000Z",
      data: { livemode: false },
    });
    expect(detail.attempts.map((a) => a.id)).toEqual([delivery!.id]);
    const stranger = scopeOf(newScope());
    expect(
      (await failureOf(endpoints.getDeliveryDetail({ scope: stranger, deliveryId: delivery!.id }))).reason,
    ).toBe("NOT_FOUND");
    const liveTwin = scopeOf({ merchantId: scope.merchantId, livemode: true });
    expect(
      (await failureOf(endpoints.getDeliveryDetail({ scope: liveTwin, deliveryId: delivery!.id }))).reason,
    ).toBe("NOT_FOUND");
  });

  it("filters the delivery list by creation time", async () => {
    const scope = scopeOf(newScope());
    await webhooks.setEndpoint({ scope, url: "https://shop.example/hooks" });
    const early = (await endpoints.sendTestEvent({ scope })).delivery!;
    clock.advance(3_600_000);
    const late = (await endpoints.sendTestEvent({ scope })).delivery!;
    const ids = async (gte?: Date, lte?: Date) =>
      (
        await webhooks.listDeliveries({
          scope,
          ...(gte ? { createdGte: { seconds: BigInt(gte.getTime() / 1000), nanos: 0 } } : {}),
          ...(lte ? { createdLte: { seconds: BigInt(lte.getTime() / 1000), nanos: 0 } } : {}),
        })
      ).deliveries.map((d) => d.id);
    expect(await ids(new Date(Date.UTC(2026, 0, 1, 12, 30)))).toEqual([late.id]);
    expect(await ids(undefined, new Date(Date.UTC(2026, 0, 1, 12, 30)))).toEqual([early.id]);
  });
});
