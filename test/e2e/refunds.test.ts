import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createEpgAcquirer, type Terminal } from "@gateway/acquirer";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { waitFor } from "@gateway/testkit";
import { verifyWebhook } from "@gateway/webhook-signature";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, merchantApi, request } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";
import { payWithCard } from "./support/pay-with-card.js";
import { expectProblem, violationCodes } from "./support/problem.js";
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";

// Refunds end to end: the refunds service as its own process behind the edge, the EPG
// simulator process as the acquirer, and its ledger as the independent witness. Refund
// outcomes reach a real webhook receiver on loopback, which verifies their signatures.
const ADMIN_TOKEN = "adm_e2e_refunds_token_5c1e";
/** Short, so the acquirer-timeout path does not slow the suite; the simulator answers in ms. */
const ACQUIRER_TIMEOUT = "2s";

/** An HTTP server that accepts requests and never answers: an acquirer that times out. */
async function startSilentAcquirer(): Promise<{ url: string; close(): Promise<void> }> {
  const open = new Set<ServerResponse>();
  const server = createServer((_req, res) => void open.add(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("refunds, distributed mode", () => {
  const databasePrefix = `e2e_ref_${Date.now().toString(36)}`;
  let gw: DistributedGateway;
  let admin: AdminApi;
  let shop: TestMerchant;
  let terminal: Terminal;
  let receiver: WebhookReceiver;
  let secret: string;
  const errorsUrl = () => `${gw.edgeUrl}/errors`;
  const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const refund = (key: string, sessionId: string, body: unknown, idempotencyKey?: string) =>
    merchantApi(gw.edgeUrl, key).refund(sessionId, body, idempotencyKey);
  const setTerminalUrl = (baseUrl: string) =>
    request(`${gw.edgeUrl}/admin/v1/merchants/${shop.id}/terminals/test`, {
      method: "PUT",
      headers: adminAuth,
      body: { base_url: baseUrl, username: terminal.username, password: terminal.password, active: true },
    });
  const manualQueue = () =>
    request(`${gw.edgeUrl}/admin/v1/refunds/manual?limit=100`, { headers: adminAuth });
  const resolve = (refundId: string, outcome: "SUCCEEDED" | "FAILED", note: string) =>
    request(`${gw.edgeUrl}/admin/v1/refunds/${refundId}/resolution`, {
      method: "POST",
      headers: adminAuth,
      body: { outcome, note },
    });

  /** The refund webhooks the receiver got about one refund. */
  const hooksOf = (refundId: string) => receiver.requests.filter((r) => r.json?.data?.refund_id === refundId);
  async function refundWebhook(refundId: string): Promise<ReceivedWebhook> {
    const [hook] = await receiver.waitForRequests(1, (r) => r.json?.data?.refund_id === refundId, 30_000);
    return hook!;
  }

  /** Signed with the shop's secret, headers as for session events, and the envelope's top level. */
  function expectSignedRefundWebhook(hook: ReceivedWebhook, event: string): void {
    expect(hook.headers["x-service-event"]).toBe(event);
    expect(hook.webhookId).toMatch(/^evt_/);
    expect(hook.signature).toMatchObject({ ok: true, webhookId: hook.webhookId });
    expect(hook.standard).toMatchObject({ ok: true, webhookId: hook.webhookId });
    expect(Object.keys(hook.json)).toEqual(["id", "event", "created_at", "data"]);
    expect(hook.json).toMatchObject({ id: hook.webhookId, event });
    expect(new Date(hook.json.created_at).toISOString()).toBe(hook.json.created_at);
  }

  /** A session of `shop` paid with the approved Visa card; returns its id and acquirer order. */
  async function paidSession(
    reference: string,
    amount: string,
    currency = "TND",
  ): Promise<{ id: string; orderId: string }> {
    const created = await merchantApi(gw.edgeUrl, shop.testKey).createSession({
      merchant_reference: reference,
      amount,
      currency,
    });
    expect(created.status, created.text).toBe(201);
    const run = await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    const session = await merchantApi(gw.edgeUrl, shop.testKey).getSession(created.body.id);
    expect(session.body.status).toBe("SUCCEEDED");
    return { id: created.body.id, orderId: run.orderId };
  }

  /** What the acquirer itself says was refunded on an order, in minor units. */
  async function acquirerRefundedMinor(orderId: string): Promise<bigint> {
    const status = await createEpgAcquirer({ timeoutMs: 5_000 }).getOrderStatus({
      terminal,
      acquirerOrderId: orderId,
    });
    return status.refundedMinor + (status.state === "REVERSED" ? status.amountMinor : 0n);
  }

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_DEMO: "0" },
      serviceEnv: { refunds: { GATEWAY_ACQUIRER_TIMEOUT: ACQUIRER_TIMEOUT } },
    });
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    shop = await createVerifiedMerchant(admin, "Refund Shop");
    terminal = { baseUrl: `${gw.simulatorUrl}/epg/rest`, username: "sim-merchant", password: "sim-password" };
    const set = await request(`${gw.edgeUrl}/admin/v1/merchants/${shop.id}/terminals/test`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: {
        base_url: terminal.baseUrl,
        username: terminal.username,
        password: terminal.password,
        active: true,
      },
    });
    expect(set.status, set.text).toBe(200);
    expect((await admin.setRate(shop.id, "EUR", "3.4")).status).toBe(200);
    receiver = await startWebhookReceiver();
    const endpoint = await request(`${gw.edgeUrl}/admin/v1/merchants/${shop.id}/webhook-endpoints/test`, {
      method: "PUT",
      headers: adminAuth,
      body: { url: receiver.url },
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    secret = endpoint.body.secret;
    receiver.setSecrets(secret);
    // Refund events are opt-in (issue 13): this merchant subscribes to them with the session events.
    const subscribed = await request(
      `${gw.edgeUrl}/admin/v1/merchants/${shop.id}/webhook-endpoints/test/subscriptions`,
      { method: "PUT", headers: adminAuth, body: { enabled_events: ["session.succeeded", "refund.*"] } },
    );
    expect(subscribed.status, subscribed.text).toBe(200);
  });

  afterAll(async () => {
    await gw?.stop();
    await receiver?.close();
    if (!gw || !process.env.MONGODB_URL) return;
    const client = await MongoClient.connect(process.env.MONGODB_URL);
    try {
      for (const service of ["accounts", "sessions", "refunds", "webhooks"])
        await client.db(`${databasePrefix}_${service}`).dropDatabase();
    } finally {
      await client.close();
    }
  });

  it("refunds partially, twice, then fully, and the balance reaches zero exactly", async () => {
    const paid = await paidSession("ref-1", "100.000");
    const first = await refund(shop.testKey, paid.id, {
      refund_type: "PARTIAL",
      amount: "30.250",
      reason: "damaged item",
    });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({
      refund_id: expect.stringMatching(/^re_/),
      refunded_amount: "30.250",
      automated_refund: true,
    });
    const second = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.001" });
    expect(second.body.refunded_amount).toBe("0.001");
    const rest = await refund(shop.testKey, paid.id, { refund_type: "FULL" });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.refunded_amount).toBe("69.749");
    expectProblem(
      await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.001" }),
      422,
      "refund-failed",
      errorsUrl(),
    );
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(100_000n);
  });

  it("refunds in TND what a EUR session was charged after conversion", async () => {
    const paid = await paidSession("ref-eur", "10.00", "EUR");
    const full = await refund(shop.testKey, paid.id, { refund_type: "FULL", metadata: { ticket: "T-1" } });
    expect(full.status, full.text).toBe(201);
    expect(full.body.refunded_amount).toBe("34.000");
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(34_000n);
  });

  it("never lets 20 concurrent partial refunds sum past the payment, and the acquirer agrees", async () => {
    const paid = await paidSession("ref-race", "10.000");
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.700" }),
      ),
    );
    const accepted = results.filter((r) => r.status === 201);
    for (const r of results.filter((x) => x.status !== 201))
      expectProblem(r, 422, "refund-failed", errorsUrl());
    expect(accepted).toHaveLength(14); // 14 × 0.700 = 9.800 ≤ 10.000 < 15 × 0.700
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(9_800n);
  });

  it("learns each paid session's amount from its session.succeeded event", async () => {
    const paid = await paidSession("ref-learned", "7.250");
    const client = await MongoClient.connect(process.env.MONGODB_URL!);
    try {
      const record = await waitFor(
        () =>
          client
            .db(`${databasePrefix}_refunds`)
            .collection("paid_sessions")
            .findOne({ sessionId: paid.id })
            .then((d) => d ?? undefined),
        {
          timeoutMs: 20_000,
          message: "the paid session recorded by the refunds service",
        },
      );
      expect(record).toMatchObject({
        merchantId: shop.id,
        livemode: false,
        currency: "TND",
        acquirerOrderId: paid.orderId,
        source: "session_event",
      });
      expect(BigInt(record.amountMinor.toString())).toBe(7_250n);
    } finally {
      await client.close();
    }
  });

  it("tells the merchant of an automated refund by a signed refund.succeeded webhook, listed with the session's deliveries", async () => {
    const paid = await paidSession("ref-hook", "7.250");
    const res = await refund(shop.testKey, paid.id, {
      refund_type: "PARTIAL",
      amount: "2.125",
      reason: "one mug broke",
      metadata: { ticket: "T-1", n: 1.5 },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      refund_id: expect.stringMatching(/^re_/),
      refunded_amount: "2.125",
      automated_refund: true,
    });
    const hook = await refundWebhook(res.body.refund_id);
    expectSignedRefundWebhook(hook, "refund.succeeded");
    const session = (await merchantApi(gw.edgeUrl, shop.testKey).getSession(paid.id)).body;
    expect(hook.json.data).toEqual({
      refund_id: res.body.refund_id,
      refunded_amount: "2.125",
      automated_refund: true,
      session_id: paid.id,
      merchant_reference: "ref-hook",
      order_number: session.order_number,
      status: "SUCCEEDED",
      refund_type: "PARTIAL",
      currency: "TND",
      reason: "one mug broke",
      metadata: { ticket: "T-1", n: 1.5 },
      created_at: expect.any(String),
    });
    // A moment more: a second delivery of the same event would show up now.
    await sleep(500);
    expect(hooksOf(res.body.refund_id)).toHaveLength(1);
    const deliveries = await merchantApi(gw.edgeUrl, shop.testKey).sessionDeliveries(paid.id);
    expect(deliveries.status, deliveries.text).toBe(200);
    const refundDelivery = deliveries.body.data.find(
      (d: { event: string }) => d.event === "refund.succeeded",
    );
    expect(refundDelivery).toMatchObject({
      session_id: paid.id,
      event_id: hook.webhookId,
      url: receiver.url,
      status: "SUCCEEDED",
      attempt_number: 1,
    });
  });

  it("when the acquirer cannot be reached, the refund still succeeds for manual processing, and resolving it done sends refund.succeeded", async () => {
    const paid = await paidSession("ref-manual", "5.000");
    expect((await setTerminalUrl("http://127.0.0.1:9/epg/rest")).status).toBe(200);
    let refundId: string;
    try {
      const res = await refund(shop.testKey, paid.id, { refund_type: "FULL" });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        refunded_amount: "5.000",
        automated_refund: false,
        epg_error_message: expect.any(String),
      });
      expect(res.body.epg_error_message.length).toBeGreaterThan(0);
      refundId = res.body.refund_id;
      // The money is spoken for: nothing more can be refunded while operations handle it.
      expectProblem(
        await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "0.001" }),
        422,
        "refund-failed",
        errorsUrl(),
      );
    } finally {
      expect((await setTerminalUrl(terminal.baseUrl)).status).toBe(200);
    }
    const queue = await manualQueue();
    expect(queue.status, queue.text).toBe(200);
    expect(queue.body.data.find((r: { id: string }) => r.id === refundId)).toMatchObject({
      session_id: paid.id,
      status: "PENDING_MANUAL",
      amount: "5.000",
      automated: false,
    });
    // Nothing is told while operations have not decided.
    await sleep(500);
    expect(hooksOf(refundId)).toEqual([]);

    const resolved = await resolve(refundId, "SUCCEEDED", "refunded by bank transfer");
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ id: refundId, status: "SUCCEEDED" });
    const hook = await refundWebhook(refundId);
    expectSignedRefundWebhook(hook, "refund.succeeded");
    expect(hook.json.data).toMatchObject({
      refund_id: refundId,
      refunded_amount: "5.000",
      automated_refund: false,
      epg_error_message: resolved.body.acquirer_error_message,
      session_id: paid.id,
      merchant_reference: "ref-manual",
      status: "SUCCEEDED",
      refund_type: "FULL",
      currency: "TND",
      reason: null,
      metadata: null,
    });
    expect(new Date(hook.json.data.resolved_at).getTime()).toBeGreaterThanOrEqual(
      new Date(hook.json.data.created_at).getTime(),
    );
    expect((await manualQueue()).body.data.map((r: { id: string }) => r.id)).not.toContain(refundId);
    // Resolving it again changes nothing and sends nothing more.
    expect((await resolve(refundId, "SUCCEEDED", "again")).status).toBe(200);
    await sleep(500);
    expect(hooksOf(refundId)).toHaveLength(1);
  });

  it("when the acquirer times out, the refund waits for operations, and resolving it failed sends refund.failed and gives the balance back", async () => {
    const paid = await paidSession("ref-timeout", "3.500");
    const silent = await startSilentAcquirer();
    let refundId: string;
    try {
      expect((await setTerminalUrl(`${silent.url}/epg/rest`)).status).toBe(200);
      const res = await refund(shop.testKey, paid.id, {
        refund_type: "PARTIAL",
        amount: "1.750",
        reason: "late delivery",
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        refunded_amount: "1.750",
        automated_refund: false,
        epg_error_message: expect.any(String),
      });
      refundId = res.body.refund_id;
    } finally {
      expect((await setTerminalUrl(terminal.baseUrl)).status).toBe(200);
      await silent.close();
    }
    expect((await manualQueue()).body.data.map((r: { id: string }) => r.id)).toContain(refundId);

    const resolved = await resolve(refundId, "FAILED", "the acquirer never received it");
    expect(resolved.status, resolved.text).toBe(200);
    const hook = await refundWebhook(refundId);
    expectSignedRefundWebhook(hook, "refund.failed");
    expect(hook.json.data).toMatchObject({
      refund_id: refundId,
      refunded_amount: "1.750",
      automated_refund: false,
      epg_error_message: expect.any(String),
      status: "FAILED",
      refund_type: "PARTIAL",
      reason: "late delivery",
      resolved_at: expect.any(String),
    });
    // The failed refund's amount is refundable again: the whole payment goes back, exactly.
    const full = await refund(shop.testKey, paid.id, { refund_type: "FULL" });
    expect(full.status, full.text).toBe(201);
    expect(full.body).toMatchObject({ refunded_amount: "3.500", automated_refund: true });
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(3_500n);
    const fullHook = await refundWebhook(full.body.refund_id);
    expectSignedRefundWebhook(fullHook, "refund.succeeded");
    expect(fullHook.json.data).toMatchObject({
      refunded_amount: "3.500",
      refund_type: "FULL",
      automated_refund: true,
    });
    // The signature covers the exact bytes: another amount would not verify.
    expect(
      verifyWebhook(
        Buffer.from(fullHook.rawBody.toString("utf8").replace('"3.500"', '"3.501"')),
        fullHook.headers,
        secret,
      ),
    ).toMatchObject({ ok: false });
  });

  it("answers a refund retried with the same Idempotency-Key with the first refund, and the acquirer refunds once", async () => {
    const paid = await paidSession("ref-idempotent", "6.000");
    const body = { refund_type: "PARTIAL", amount: "1.250", reason: "retry after a timeout" };
    const first = await refund(shop.testKey, paid.id, body, "rma-9001");
    expect(first.status, first.text).toBe(201);
    const retries = await Promise.all([1, 2, 3].map(() => refund(shop.testKey, paid.id, body, "rma-9001")));
    for (const retry of retries) {
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body).toEqual(first.body);
    }
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(1_250n);
    expectProblem(
      await refund(shop.testKey, paid.id, { ...body, amount: "2.000" }, "rma-9001"),
      409,
      "conflict",
      errorsUrl(),
    );
    const second = await refund(shop.testKey, paid.id, body, "rma-9002");
    expect(second.body.refund_id).not.toBe(first.body.refund_id);
    expect(await acquirerRefundedMinor(paid.orderId)).toBe(2_500n);
  });

  it("refuses a session whose payment failed", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const created = await api.createSession({
      merchant_reference: "ref-failed",
      amount: "1.000",
      max_attempts: 1,
    });
    await payWithCard(created.body.checkout_url, { number: "4000000000000002" });
    expect((await api.getSession(created.body.id)).body.status).toBe("FAILED");
    expectProblem(
      await refund(shop.testKey, created.body.id, { refund_type: "FULL" }),
      422,
      "invalid-state",
      errorsUrl(),
    );
  });

  it("refuses sessions that were not paid, bad amounts, and other merchants' sessions", async () => {
    const api = merchantApi(gw.edgeUrl, shop.testKey);
    const open = await api.createSession({ merchant_reference: "ref-open", amount: "1.000" });
    expectProblem(
      await refund(shop.testKey, open.body.id, { refund_type: "FULL" }),
      422,
      "invalid-state",
      errorsUrl(),
    );
    await api.cancelSession(open.body.id);
    expectProblem(
      await refund(shop.testKey, open.body.id, { refund_type: "FULL" }),
      422,
      "invalid-state",
      errorsUrl(),
    );

    const paid = await paidSession("ref-validate", "2.000");
    const numeric = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: 1 });
    expectProblem(numeric, 422, "validation-error", errorsUrl());
    expect(violationCodes(numeric)).toContain("amount:invalid_type");
    const precision = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL", amount: "1.00" });
    expect(violationCodes(precision)).toContain("amount:invalid_precision");
    const missing = await refund(shop.testKey, paid.id, { refund_type: "PARTIAL" });
    expect(violationCodes(missing)).toContain("amount:required");

    const other = await createVerifiedMerchant(admin, "Someone Else");
    expectProblem(
      await refund(other.testKey, paid.id, { refund_type: "FULL" }),
      404,
      "not-found",
      errorsUrl(),
    );
    expectProblem(
      await refund(shop.liveKey, paid.id, { refund_type: "FULL" }),
      404,
      "not-found",
      errorsUrl(),
    );
  });
});
