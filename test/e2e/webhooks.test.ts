import { setTimeout as sleep } from "node:timers/promises";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { waitFor } from "@gateway/testkit";
import { verifyStandardWebhook, verifyWebhook } from "@gateway/webhook-signature";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, type MerchantApi, merchantApi, request } from "./support/http.js";
import { createVerifiedMerchant, type TestMerchant } from "./support/merchants.js";
import { payWithCard } from "./support/pay-with-card.js";
import {
  answer,
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";

// Issue "Events and webhooks" end to end: the distributed stack (edge, accounts, sessions,
// webhooks, EPG simulator as processes, MongoDB wire server, NATS JetStream) delivering signed
// webhooks to a real HTTP receiver on loopback. The demo merchant's test terminal points at the
// simulator process, so its test key pays real (simulated) card payments.
const ADMIN_TOKEN = "adm_e2e_webhooks_token_5c1e07";
const DEMO = "mer_demo";
const VISA_OK = "4242424242424242";
const VISA_DECLINED = "4000000000000002";
const TIMEOUT_MS = 500;
const RETRY_SCHEDULE_MS = [100, 200, 300, 400];
const stackEnv = (databasePrefix: string, webhooks: Record<string, string>) => ({
  mongodbUrl: process.env.MONGODB_URL,
  natsUrl: process.env.NATS_URL,
  databasePrefix,
  env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
  serviceEnv: { webhooks },
});

/** Stops a stack and drops its databases (only when it ran on the shared MongoDB). */
async function stopStack(gw: DistributedGateway | undefined, databasePrefix: string): Promise<void> {
  await gw?.stop();
  if (!gw || !process.env.MONGODB_URL) return;
  const client = await MongoClient.connect(process.env.MONGODB_URL);
  try {
    for (const service of ["accounts", "sessions", "webhooks"])
      await client.db(`${databasePrefix}_${service}`).dropDatabase();
  } finally {
    await client.close();
  }
}

function webhookAdmin(gw: DistributedGateway) {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const url = (path: string) => `${gw.edgeUrl}/admin/v1${path}`;
  return {
    setEndpoint: (merchantId: string, url_: string) =>
      request(url(`/merchants/${merchantId}/webhook-endpoints/test`), {
        method: "PUT",
        headers: auth,
        body: { url: url_ },
      }),
    rotateSecret: (merchantId: string) =>
      request(url(`/merchants/${merchantId}/webhook-endpoints/test/rotate-secret`), {
        method: "POST",
        headers: auth,
      }),
    resend: (deliveryId: string) =>
      request(url(`/webhook-deliveries/${deliveryId}/resend`), { method: "POST", headers: auth }),
    setFees: (merchantId: string, percent: string, fixed: string) =>
      request(url(`/merchants/${merchantId}/fees`), {
        method: "PUT",
        headers: auth,
        body: { percent, fixed },
      }),
  };
}

function deliveriesApi(gw: DistributedGateway, key: string) {
  const api = merchantApi(gw.edgeUrl, key);
  return {
    ofSession: (sessionId: string, query: Record<string, string> = {}) =>
      api.sessionDeliveries(sessionId, query),
    ofAccount: (query: Record<string, string> = {}) => api.listDeliveries(query),
  };
}

/** Integer minor units of a TND decimal string, for exact sums. */
const millimes = (amount: string) => BigInt(amount.replace(".", ""));

let counter = 0;
async function paidSession(api: MerchantApi, card: string, extra: Record<string, unknown> = {}) {
  const created = await api.createSession({
    merchant_reference: `wh-${Date.now().toString(36)}-${++counter}`,
    amount: "42.000",
    return_url: "https://shop.example/ok",
    ...extra,
  });
  expect(created.status, created.text).toBe(201);
  await payWithCard(created.body.checkout_url, { number: card });
  return created.body as {
    id: string;
    checkout_url: string;
    order_number: string;
    merchant_reference: string;
  };
}

function expectSignedHeaders(r: ReceivedWebhook, event: string): void {
  expect(r.method).toBe("POST");
  expect(r.headers["content-type"]).toMatch(/^application\/json/);
  expect(r.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(r.headers["x-service-event"]).toBe(event);
  expect(r.webhookId).toMatch(/^evt_/);
  expect(r.headers["webhook-id"]).toBe(r.webhookId);
  expect(r.headers["webhook-timestamp"]).toMatch(/^\d+$/);
  expect(r.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(r.json.id).toBe(r.webhookId);
  expect(r.json.event).toBe(event);
  expect(r.signature).toMatchObject({ ok: true, webhookId: r.webhookId });
  expect(r.standard).toMatchObject({ ok: true, webhookId: r.webhookId });
}

describe("events and webhooks, distributed mode", () => {
  const prefix = `e2e_wh_${Date.now().toString(36)}`;
  let gw: DistributedGateway;
  let admin: AdminApi;
  let hooks: ReturnType<typeof webhookAdmin>;
  let demo: MerchantApi;
  let other: TestMerchant;
  let receiver: WebhookReceiver;
  let secret: string;
  let paid: { id: string; order_number: string; merchant_reference: string };
  let succeeded: ReceivedWebhook;

  beforeAll(async () => {
    gw = await startDistributedGateway(
      stackEnv(prefix, {
        GATEWAY_WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE_MS.map((ms) => `${ms}ms`).join(","),
        GATEWAY_WEBHOOK_POLL_INTERVAL: "100ms",
        GATEWAY_WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms`,
      }),
    );
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    hooks = webhookAdmin(gw);
    demo = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    other = await createVerifiedMerchant(admin, "Other Shop");
    receiver = await startWebhookReceiver();
    const endpoint = await hooks.setEndpoint(DEMO, receiver.url);
    expect(endpoint.status, endpoint.text).toBe(200);
    expect(endpoint.body.url).toBe(receiver.url);
    expect(endpoint.body.secret).toMatch(/^whsec_/);
    secret = endpoint.body.secret;
    receiver.setSecrets(secret);
    // Setting it again keeps the secret and never shows it again.
    expect((await hooks.setEndpoint(DEMO, receiver.url)).body).toEqual({ url: receiver.url, secret: null });
    expect((await hooks.setFees(DEMO, "2.5", "0.250")).status).toBe(200);
  });

  afterAll(async () => {
    await stopStack(gw, prefix);
    await receiver?.close();
  });

  it("sends exactly one signed session.succeeded with the envelope of 6.2 for a paid session", async () => {
    paid = await paidSession(demo, VISA_OK, {
      order_id: "A-77",
      description: "Two books",
      buyer_first_name: "Amira",
      buyer_last_name: "Ben Ali",
      buyer_email: "amira@example.com",
      buyer_phone: "+21620000000",
      items: [{ name: "Book", quantity: 2, unit_price: "21.000", description: "Paperback" }],
      metadata: { cart: "c-9", gift: true },
    });
    succeeded = (await receiver.waitForRequests(1, (r) => r.json?.data?.id === paid.id))[0]!;
    // A moment more: a second delivery of the same event would show up now.
    await sleep(1_000);
    expect(receiver.forSession(paid.id)).toHaveLength(1);
    const r = succeeded;
    expect(r.path).toBe("/hooks");
    expectSignedHeaders(r, "session.succeeded");
    // The signature covers the raw bytes: any change to them breaks it.
    const tampered = Buffer.from(r.rawBody.toString("utf8").replace('"42.000"', '"42.001"'));
    expect(verifyWebhook(tampered, r.headers, secret)).toEqual({
      ok: false,
      reason: "no_matching_signature",
    });
    expect(verifyWebhook(r.rawBody, r.headers, `whsec_${"A".repeat(43)}`)).toEqual({
      ok: false,
      reason: "no_matching_signature",
    });

    const e = r.json;
    expect(Object.keys(e)).toEqual(expect.arrayContaining(["id", "event", "created_at", "data"]));
    expect(new Date(e.created_at).toISOString()).toBe(e.created_at);
    const d = e.data;
    expect(d).toMatchObject({
      id: paid.id,
      order_number: paid.order_number,
      merchant_reference: paid.merchant_reference,
      order_id: "A-77",
      amount: "42.000",
      currency: "TND",
      description: "Two books",
      status: "SUCCEEDED",
      buyer: { first_name: "Amira", last_name: "Ben Ali", email: "amira@example.com", phone: "+21620000000" },
      items: [{ name: "Book", quantity: 2, unit_price: "21.000", description: "Paperback" }],
      metadata: { cart: "c-9", gift: true },
    });
    expect(d.id).toMatch(/^ps_/);
    expect(new Date(d.paid_at).toISOString()).toBe(d.paid_at);
    expect(d.payment).toMatchObject({ method: "card", card_brand: "visa", card_last_four: "4242" });
    expect(Object.keys(d.payment).sort()).toEqual([
      "card_brand",
      "card_country",
      "card_last_four",
      "fee_amount",
      "method",
      "net_amount",
    ]);
    expect(d.payment.card_country === null || /^[A-Z]{2}$/.test(d.payment.card_country)).toBe(true);
    expect(d.payment.fee_amount).toMatch(/^\d+\.\d{3}$/);
    expect(d.payment.net_amount).toMatch(/^\d+\.\d{3}$/);
    // 2.5 % of 42.000 plus 0.250.
    expect(d.payment.fee_amount).toBe("1.300");
    expect(millimes(d.payment.fee_amount) + millimes(d.payment.net_amount)).toBe(millimes("42.000"));
  });

  it("lists the session's deliveries with their figures, and hides them from another merchant", async () => {
    const list = await deliveriesApi(gw, gw.demoTestKey!).ofSession(paid.id);
    expect(list.status, list.text).toBe(200);
    expect(list.body.has_more).toBe(false);
    expect(list.body.data).toHaveLength(1);
    const [delivery] = list.body.data;
    expect(delivery).toMatchObject({
      session_id: paid.id,
      event: "session.succeeded",
      event_id: succeeded.webhookId,
      url: receiver.url,
      attempt_number: 1,
      status: "SUCCEEDED",
      http_status_code: 200,
      error_message: null,
      next_retry_at: null,
    });
    expect(delivery.id).toMatch(/^whd_/);
    expect(Number.isInteger(delivery.response_time_ms) && delivery.response_time_ms >= 0).toBe(true);

    const foreign = await deliveriesApi(gw, other.testKey).ofSession(paid.id);
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body.type).toBe(`${gw.edgeUrl}/errors/not-found`);
    const foreignAccount = await deliveriesApi(gw, other.testKey).ofAccount({
      event_id: succeeded.webhookId!,
    });
    expect(foreignAccount.body.data).toEqual([]);
  });

  it("sends session.failed with can_retry for a declined attempt, then session.succeeded, newest first in the history", async () => {
    const created = await demo.createSession({
      merchant_reference: `wh-decline-${Date.now().toString(36)}`,
      amount: "15.500",
      return_url: "https://shop.example/ok",
    });
    expect(created.status, created.text).toBe(201);
    const sessionId = created.body.id;
    await payWithCard(created.body.checkout_url, { number: VISA_DECLINED });
    const [failed] = await receiver.waitForRequests(1, (r) => r.json?.data?.id === sessionId);
    expectSignedHeaders(failed!, "session.failed");
    expect(failed!.json.data).toMatchObject({
      id: sessionId,
      amount: "15.500",
      can_retry: true,
      attempts_count: 1,
      last_failure_code: "card_declined",
    });
    expect(typeof failed!.json.data.last_failure_message).toBe("string");
    expect(failed!.json.data.status).not.toBe("FAILED");

    // The buyer tries again on the same link and pays.
    await payWithCard(created.body.checkout_url, { number: VISA_OK });
    const both = await receiver.waitForRequests(2, (r) => r.json?.data?.id === sessionId);
    expectSignedHeaders(both[1]!, "session.succeeded");
    expect(both[1]!.webhookId).not.toBe(failed!.webhookId);

    const history = await waitFor(
      async () => {
        const res = await deliveriesApi(gw, gw.demoTestKey!).ofSession(sessionId);
        return res.body.data?.length === 2 && res.body.data.every((d: any) => d.status === "SUCCEEDED")
          ? res.body.data
          : undefined;
      },
      { message: "both deliveries recorded SUCCEEDED" },
    );
    expect(history.map((d: any) => d.event)).toEqual(["session.succeeded", "session.failed"]);
    expect(history.map((d: any) => d.event_id)).toEqual([both[1]!.webhookId, failed!.webhookId]);
    expect(
      history.every((d: any) => d.http_status_code === 200 && Number.isInteger(d.response_time_ms)),
    ).toBe(true);

    // The account-wide list (4.8) filters by event and by event id.
    const account = deliveriesApi(gw, gw.demoTestKey!);
    const onlyFailed = await account.ofAccount({ event: "session.failed" });
    expect(onlyFailed.status, onlyFailed.text).toBe(200);
    expect(onlyFailed.body.data.length).toBeGreaterThanOrEqual(1);
    expect(onlyFailed.body.data.every((d: any) => d.event === "session.failed")).toBe(true);
    expect(onlyFailed.body.data.map((d: any) => d.event_id)).toContain(failed!.webhookId);
    const onlySucceeded = await account.ofAccount({ event: "session.succeeded" });
    expect(onlySucceeded.body.data.every((d: any) => d.event === "session.succeeded")).toBe(true);
    expect(onlySucceeded.body.data.map((d: any) => d.event_id)).toEqual(
      expect.arrayContaining([succeeded.webhookId, both[1]!.webhookId]),
    );
    const byId = await account.ofAccount({ event_id: failed!.webhookId! });
    expect(byId.body.data).toHaveLength(1);
    expect(byId.body.data[0]).toMatchObject({
      session_id: sessionId,
      event: "session.failed",
      event_id: failed!.webhookId,
    });
    const badEvent = await account.ofAccount({ event: "session.paid" });
    expect(badEvent.status).toBe(422);
  });

  it("retries a failing receiver on the configured schedule until it succeeds, recording every attempt", async () => {
    const flaky = await startWebhookReceiver({ secrets: secret });
    try {
      const plan = [
        answer.status(500),
        answer.hang(),
        answer.reset(),
        answer.redirect("https://elsewhere.example/hooks"),
        answer.ok(),
      ];
      flaky.answerWith((n) => plan[n - 1] ?? answer.ok());
      const started = Date.now();
      const session = await paidSession(demo, VISA_OK, { webhook_url: flaky.url });
      const got = await flaky.waitForRequests(5, () => true, 30_000);
      await sleep(1_000);
      expect(flaky.requests).toHaveLength(5);
      // Same event, same bytes, every time; each signed afresh with the account's secret.
      for (const r of got) {
        expectSignedHeaders(r, "session.succeeded");
        expect(r.webhookId).toBe(got[0]!.webhookId);
        expect(r.rawBody.equals(got[0]!.rawBody)).toBe(true);
        expect(r.json.data.id).toBe(session.id);
      }

      const history = await waitFor(
        async () => {
          const res = await deliveriesApi(gw, gw.demoTestKey!).ofSession(session.id);
          return res.body.data?.length === 5 && res.body.data[0].status === "SUCCEEDED"
            ? res.body.data
            : undefined;
        },
        { message: "five attempts recorded", timeoutMs: 15_000 },
      );
      const attempts = [...history].reverse();
      expect(attempts.map((d: any) => d.attempt_number)).toEqual([1, 2, 3, 4, 5]);
      expect(attempts.map((d: any) => d.status)).toEqual([
        "FAILED",
        "FAILED",
        "FAILED",
        "FAILED",
        "SUCCEEDED",
      ]);
      expect(attempts.map((d: any) => d.http_status_code)).toEqual([500, null, null, 302, 200]);
      expect(attempts[0].error_message).toMatch(/500/);
      expect(attempts[1].error_message).toMatch(/timed out after 500 ms/i);
      expect(attempts[2].error_message).toMatch(/reset/i);
      expect(attempts[3].error_message).toMatch(
        /Redirects are not followed \(302 to https:\/\/elsewhere\.example\/hooks\)/,
      );
      expect(attempts[4].error_message).toBeNull();
      expect(new Set(attempts.map((d: any) => d.event_id))).toEqual(new Set([got[0]!.webhookId]));
      expect(attempts.every((d: any) => d.url === flaky.url)).toBe(true);

      for (let i = 0; i < 4; i++) {
        const failedAttempt = attempts[i];
        expect(failedAttempt.next_retry_at, `attempt ${i + 1}`).not.toBeNull();
        const retryAt = Date.parse(failedAttempt.next_retry_at);
        // The retry is not sent before its time, which follows the schedule after the failure.
        expect(got[i + 1]!.receivedAt).toBeGreaterThanOrEqual(retryAt - 5);
        const failedAt = got[i]!.receivedAt + (plan[i]!.kind === "hang" ? TIMEOUT_MS : 0);
        expect(retryAt - failedAt).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[i]! - 50);
        expect(got[i + 1]!.receivedAt - failedAt).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[i]! - 50);
      }
      expect(attempts[4].next_retry_at).toBeNull();
      // Nothing outlandish: the whole chain took about the sum of the waits, not minutes.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await flaky.close();
    }
  });

  it("resends with the same webhook id and the current secret; after a rotation deliveries verify with both secrets", async () => {
    const [original] = (await deliveriesApi(gw, gw.demoTestKey!).ofSession(paid.id)).body.data;
    const rotated = await hooks.rotateSecret(DEMO);
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 3600_000);
    receiver.setSecrets(newSecret);

    const before = receiver.forSession(paid.id).length;
    const resent = await hooks.resend(original.id);
    expect(resent.status, resent.text).toBe(202);
    expect(resent.body).toMatchObject({
      session_id: paid.id,
      event: "session.succeeded",
      event_id: succeeded.webhookId,
      attempt_number: 2,
    });
    expect(resent.body.id).not.toBe(original.id);
    const again = (await receiver.waitForRequests(before + 1, (r) => r.json?.data?.id === paid.id)).at(-1)!;
    expect(again.webhookId).toBe(succeeded.webhookId);
    expect(again.rawBody.equals(succeeded.rawBody)).toBe(true);
    // Signed with the current secret (the new one), still carrying the old one during the overlap.
    expect(verifyWebhook(again.rawBody, again.headers, newSecret)).toMatchObject({ ok: true });
    expect(verifyStandardWebhook(again.rawBody, again.headers, newSecret)).toMatchObject({ ok: true });
    await waitFor(
      async () =>
        (await deliveriesApi(gw, gw.demoTestKey!).ofSession(paid.id)).body.data.find(
          (d: any) => d.id === resent.body.id,
        )?.status === "SUCCEEDED",
      { message: "the resend recorded SUCCEEDED" },
    );

    // A new event after the rotation: two v1 values, each secret alone verifies it.
    const fresh = await paidSession(demo, VISA_OK);
    const [r] = await receiver.waitForRequests(1, (x) => x.json?.data?.id === fresh.id);
    const values = r!.headers["x-service-signature"]!.toString().match(/v1=[0-9a-f]{64}/g);
    expect(values).toHaveLength(2);
    expect(r!.headers["webhook-signature"]!.toString().split(" ")).toHaveLength(2);
    for (const s of [newSecret, secret]) {
      expect(
        verifyWebhook(r!.rawBody, r!.headers, s),
        s === secret ? "old secret" : "new secret",
      ).toMatchObject({ ok: true, webhookId: r!.webhookId });
      expect(verifyStandardWebhook(r!.rawBody, r!.headers, s)).toMatchObject({
        ok: true,
        webhookId: r!.webhookId,
      });
    }
    // The new secret is listed first.
    const firstOnly = r!.headers["x-service-signature"]!.toString().replace(/,v1=[0-9a-f]{64}$/, "");
    expect(
      verifyWebhook(r!.rawBody, { ...r!.headers, "x-service-signature": firstOnly }, newSecret),
    ).toMatchObject({ ok: true });
    secret = newSecret;
  });
});

describe("webhooks SSRF guard, distributed mode", () => {
  const prefix = `e2e_whssrf_${Date.now().toString(36)}`;
  let gw: DistributedGateway;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    gw = await startDistributedGateway(
      stackEnv(prefix, {
        GATEWAY_WEBHOOK_ALLOW_PRIVATE: "0",
        GATEWAY_WEBHOOK_RETRY_SCHEDULE: "100ms",
        GATEWAY_WEBHOOK_POLL_INTERVAL: "100ms",
        GATEWAY_WEBHOOK_TIMEOUT: "500ms",
      }),
    );
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await stopStack(gw, prefix);
    await receiver?.close();
  });

  it("refuses loopback, private, link-local and names resolving to loopback, recording each delivery FAILED", async () => {
    const hooks = webhookAdmin(gw);
    const endpoint = await hooks.setEndpoint(DEMO, `http://127.0.0.1:${receiver.port}/`);
    expect(endpoint.status, endpoint.text).toBe(200);
    receiver.setSecrets(endpoint.body.secret);
    const demo = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    const targets: Array<[string | undefined, RegExp]> = [
      // The account endpoint itself (no session URL).
      [undefined, /\(127\.0\.0\.1\)/],
      ["http://10.0.0.1/hooks", /\(10\.0\.0\.1\)/],
      ["http://169.254.169.254/latest/meta-data", /\(169\.254\.169\.254\)/],
      [`http://[::1]:${receiver.port}/`, /\(::1\)|\(\[::1\]\)/],
      [`http://localhost:${receiver.port}/`, /\((127\.0\.0\.1|::1|\[::1\])\)/],
    ];
    const sessions: string[] = [];
    for (const [url] of targets)
      sessions.push((await paidSession(demo, VISA_OK, url ? { webhook_url: url } : {})).id);

    for (const [i, [url, address]] of targets.entries()) {
      const attempts = await waitFor(
        async () => {
          const res = await deliveriesApi(gw, gw.demoTestKey!).ofSession(sessions[i]!);
          const data = res.body.data ?? [];
          // First attempt and its one retry, both settled.
          return data.length === 2 && data.every((d: any) => d.status !== "PENDING") ? data : undefined;
        },
        { message: `the refused deliveries to ${url ?? "the account endpoint"}`, timeoutMs: 20_000 },
      );
      for (const d of attempts) {
        expect(d.status, url).toBe("FAILED");
        expect(d.http_status_code).toBeNull();
        expect(d.url).toBe(url ?? `http://127.0.0.1:${receiver.port}/`);
        // Issue 15 item 4: the merchant reads a neutral reason (it used to name the address);
        // the operator's log keeps the detail.
        expect(d.error_message).toBe("Could not connect to the endpoint");
        expect(d.error_message).not.toMatch(address);
      }
      expect(gw.processes.webhooks.logs()).toMatch(address);
    }
    await sleep(500);
    expect(receiver.requests).toEqual([]);
  });
});
