import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, type ConnectError, createClient } from "@connectrpc/connect";
import { createInProcessTransport, fromConnectError, ManualClock } from "@gateway/platform";
import { AccountScopeSchema, DeliveryStatus, WebhookService } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import type { WebhooksStores } from "../../src/app/ports.js";
import { firstAttemptId, recordSessionEvent } from "../../src/app/record-session-event.js";
import { createWebhooksRoutes } from "../../src/webhooks-module.js";
import { eventFacts, newScope } from "../support/fixtures.js";
import { captureLogger } from "../support/silent-logger.js";

const OVERLAP = 24 * 3600_000;

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    const gatewayError = fromConnectError(err);
    return {
      code: (err as ConnectError).code,
      reason: gatewayError.reason,
      fields: gatewayError.violations.map((v) => v.field),
    };
  }
  throw new Error("expected the call to fail");
}

describe("WebhookService over Connect", () => {
  let clock: ManualClock;
  let stores: WebhooksStores;
  let client: Client<typeof WebhookService>;
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
      settings: { secretOverlapMs: OVERLAP },
      wake: () => (woken += 1),
    });
    client = createClient(WebhookService, createInProcessTransport({ name: "webhooks", routes, logger }));
  });

  const scopeProto = (scope: { merchantId: string; livemode: boolean }) => create(AccountScopeSchema, scope);

  it("when an endpoint is set the first time, then its whsec_ secret is returned once; later sets return none", async () => {
    const scope = newScope();
    const first = await client.setEndpoint({
      scope: scopeProto(scope),
      url: "https://shop.example.tn/hooks",
    });
    expect(first.url).toBe("https://shop.example.tn/hooks");
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const again = await client.setEndpoint({ scope: scopeProto(scope), url: "https://shop.example.tn/v2" });
    expect(again).toMatchObject({ url: "https://shop.example.tn/v2", secret: "" });
    expect((await stores.endpoints.find(scope))?.secret).toBe(first.secret);
  });

  it("when the endpoint URL is bad, then the call fails with a validation error on url", async () => {
    const live = newScope(true);
    expect(
      await failureOf(client.setEndpoint({ scope: scopeProto(live), url: "http://shop.example.tn/hooks" })),
    ).toEqual({
      code: Code.InvalidArgument,
      reason: "VALIDATION_ERROR",
      fields: ["url"],
    });
    expect(await failureOf(client.setEndpoint({ scope: scopeProto(live), url: "" }))).toMatchObject({
      reason: "VALIDATION_ERROR",
      fields: ["url"],
    });
  });

  it("when a call names no account, then it is refused", async () => {
    expect(await failureOf(client.setEndpoint({ url: "https://shop.example.tn/hooks" }))).toMatchObject({
      code: Code.Unauthenticated,
      reason: "UNAUTHORIZED",
    });
    expect(await failureOf(client.listDeliveries({}))).toMatchObject({ reason: "UNAUTHORIZED" });
    expect(await failureOf(client.rotateSecret({}))).toMatchObject({ reason: "UNAUTHORIZED" });
  });

  it("when the secret is rotated, then the new one is returned with the end of the old one's overlap", async () => {
    const scope = newScope();
    const { secret: first } = await client.setEndpoint({
      scope: scopeProto(scope),
      url: "https://shop.example.tn/hooks",
    });
    const rotated = await client.rotateSecret({ scope: scopeProto(scope) });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first);
    expect(timestampDate(rotated.previousSecretExpiresAt!)).toEqual(
      new Date(clock.now().getTime() + OVERLAP),
    );
    const brandNew = await client.rotateSecret({ scope: scopeProto(newScope()) });
    expect(brandNew.secret).toMatch(/^whsec_/);
    expect(brandNew.previousSecretExpiresAt).toBeUndefined();
  });

  it("when deliveries are listed, then they are the caller's, filtered and paged, in the wire form", async () => {
    const scope = newScope();
    const facts = eventFacts("session.failed", { scope, sessionId: "ps_mine" });
    await recordSessionEvent({ stores, clock }, facts);
    await recordSessionEvent({ stores, clock }, eventFacts("session.failed", { scope: newScope() }));
    const listed = await client.listDeliveries({
      scope: scopeProto(scope),
      sessionId: "ps_mine",
      status: DeliveryStatus.PENDING,
      page: { limit: 10 },
    });
    expect(listed.deliveries).toHaveLength(1);
    const [d] = listed.deliveries;
    expect(d).toMatchObject({
      id: firstAttemptId(facts.eventId),
      sessionId: "ps_mine",
      event: "session.failed",
      eventId: facts.eventId,
      url: "",
      attemptNumber: 1,
      status: DeliveryStatus.PENDING,
      errorMessage: "",
    });
    expect(d?.httpStatusCode).toBeUndefined();
    expect(d?.responseTimeMs).toBeUndefined();
    expect(d?.nextRetryAt).toBeUndefined();
    expect(timestampDate(d!.createdAt!)).toEqual(clock.now());
    expect(listed.pageInfo).toMatchObject({ hasMore: false, nextCursor: "" });
    expect(
      (await client.listDeliveries({ scope: scopeProto(scope), status: DeliveryStatus.SUCCEEDED }))
        .deliveries,
    ).toEqual([]);
    expect(
      await failureOf(client.listDeliveries({ scope: scopeProto(scope), page: { limit: 500 } })),
    ).toMatchObject({ reason: "VALIDATION_ERROR", fields: ["limit"] });
  });

  it("when a delivery is resent, then the new PENDING attempt comes back and the dispatcher is woken", async () => {
    const scope = newScope();
    const facts = eventFacts("session.succeeded", { scope });
    await recordSessionEvent({ stores, clock }, facts);
    const { delivery } = await client.resendDelivery({ deliveryId: firstAttemptId(facts.eventId) });
    expect(delivery).toMatchObject({
      eventId: facts.eventId,
      attemptNumber: 2,
      status: DeliveryStatus.PENDING,
    });
    expect(woken).toBe(1);
    expect(await failureOf(client.resendDelivery({ deliveryId: "whd_missing" }))).toMatchObject({
      code: Code.NotFound,
      reason: "NOT_FOUND",
    });
  });

  it("when a bulk resend runs, then it answers how many events went again", async () => {
    const scope = newScope();
    for (let i = 0; i < 3; i++)
      await recordSessionEvent({ stores, clock }, eventFacts("session.succeeded", { scope }));
    await recordSessionEvent({ stores, clock }, eventFacts("session.expired", { scope }));
    clock.advance(1);
    const result = await client.bulkResendDeliveries({
      scope: scopeProto(scope),
      event: "session.succeeded",
      status: DeliveryStatus.PENDING,
      createdLte: timestampFromDate(clock.now()),
    });
    expect(result.resent).toBe(3);
    expect(woken).toBe(1);
    // The cutoff used, to pass on in a repeat: never later than the moment before the call began.
    expect(timestampDate(result.createdLte!)).toEqual(new Date(clock.now().getTime() - 1));
    const earlier = new Date(clock.now().getTime() - 60_000);
    const bounded = await client.bulkResendDeliveries({
      scope: scopeProto(scope),
      createdLte: timestampFromDate(earlier),
    });
    expect(timestampDate(bounded.createdLte!)).toEqual(earlier);
  });
});
