import { setTimeout as sleep } from "node:timers/promises";
import { createEpgAcquirer, type OrderStatus, type Terminal } from "@gateway/acquirer";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { waitFor } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MerchantApi, merchantApi, request } from "./support/http.js";
import { payWithCard, startPayment } from "./support/pay-with-card.js";
import { expectProblem } from "./support/problem.js";
import { eventsOf, expectExactlyOneEvent, waitForEvent } from "./support/session-events.js";
import {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";

// Issue 6 end to end: session expiry by a sweeper that two sessions replicas run at once,
// checkout-link expiry and the repeat create that mints a fresh link, reconciliation of attempts
// with the acquirer (late approvals, abandoned card pages), cancel during an in-flight attempt,
// and a crash of the sessions processes in the middle of a sweep. Lifetimes are milliseconds;
// the demo merchant's test terminal is the EPG simulator process, whose own book is the
// independent witness of what was charged.
const ADMIN_TOKEN = "adm_e2e_lifetimes_token_41c9d2";
const DEMO = "mer_demo";
const VISA_OK = "4242424242424242";
/** Stays in 3-D Secure for LATE_APPROVAL_DELAY_MS, then is approved and deposited. */
const LATE_APPROVAL = "4000000000003220";
const SESSION_LIFETIME_MS = 8_000;
const LINK_LIFETIME_MS = 2_000;
const LATE_APPROVAL_DELAY_MS = 6_000;
const SIMULATOR_ORDER_TIMEOUT_MS = 2_000;
/** Ample time for a sweep, the outbox relay and a webhook delivery after something is due. */
const SETTLE_MS = 10_000;
const prefix = `e2e_life_${Date.now().toString(36)}`;

interface Created {
  id: string;
  checkout_url: string;
  expires_at: string;
}

describe("session lifetimes and reconciliation, distributed mode with two sessions replicas", () => {
  let gw: DistributedGateway;
  let api: MerchantApi;
  let receiver: WebhookReceiver;
  let terminal: Terminal;
  let references = 0;
  const body = (extra: Record<string, unknown> = {}) => ({
    merchant_reference: `life-${Date.now().toString(36)}-${++references}`,
    amount: "25.500",
    return_url: "https://shop.example/ok",
    ...extra,
  });

  async function create(payload = body()): Promise<Created> {
    const res = await api.createSession(payload);
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function sessionOf(id: string): Promise<any> {
    const res = await api.getSession(id);
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** What the acquirer (the simulator's own book) says about an order. */
  const acquirerOrder = (acquirerOrderId: string): Promise<OrderStatus> =>
    createEpgAcquirer({ timeoutMs: 5_000 }).getOrderStatus({ terminal, acquirerOrderId });

  /** A late payment given back: the session event and the acquirer's book agree on it. */
  async function expectReturned(
    returned: ReceivedWebhook,
    orderId: string,
    amountMinor: bigint,
  ): Promise<void> {
    const late = returned.json.data.late_payment;
    const order = await acquirerOrder(orderId);
    if (late.method === "reversal") {
      expect(order.state).toBe("REVERSED");
      expect(order.depositedMinor).toBe(0n);
    } else {
      expect(late.method).toBe("refund");
      expect(order.state).toBe("REFUNDED");
      expect(order.refundedMinor).toBe(amountMinor);
    }
  }

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: prefix,
      sessionsReplicas: 2,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
      serviceEnv: {
        sessions: {
          GATEWAY_SESSION_LIFETIME: `${SESSION_LIFETIME_MS}ms`,
          GATEWAY_CHECKOUT_LINK_LIFETIME: `${LINK_LIFETIME_MS}ms`,
          GATEWAY_SWEEP_INTERVAL: "200ms",
          GATEWAY_RECONCILE_INTERVAL: "500ms",
          // Short, so sessions claimed by a killed replica are taken over within the test.
          GATEWAY_SWEEP_LEASE: "1500ms",
        },
        "epg-simulator": {
          EPG_SIM_LATE_APPROVAL_DELAY: `${LATE_APPROVAL_DELAY_MS}ms`,
          EPG_SIM_ORDER_TIMEOUT: `${SIMULATOR_ORDER_TIMEOUT_MS}ms`,
        },
        webhooks: {
          GATEWAY_WEBHOOK_POLL_INTERVAL: "100ms",
          GATEWAY_WEBHOOK_RETRY_SCHEDULE: "200ms,400ms,800ms",
        },
      },
    });
    api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    terminal = { baseUrl: `${gw.simulatorUrl}/epg/rest`, username: "sim-merchant", password: "sim-password" };
    receiver = await startWebhookReceiver();
    const endpoint = await request(`${gw.edgeUrl}/admin/v1/merchants/${DEMO}/webhook-endpoints/test`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: { url: receiver.url },
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    receiver.setSecrets(endpoint.body.secret);
    // Late-payment returns are opt-in (issue 13): this merchant subscribes to them with the session events.
    const subscribed = await request(
      `${gw.edgeUrl}/admin/v1/merchants/${DEMO}/webhook-endpoints/test/subscriptions`,
      {
        method: "PUT",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: {
          enabled_events: [
            "session.succeeded",
            "session.failed",
            "session.expired",
            "checkout.session.expired",
            "session.late_payment_returned",
          ],
        },
      },
    );
    expect(subscribed.status, subscribed.text).toBe(200);
  });

  afterAll(async () => {
    await gw?.stop();
    await receiver?.close();
    if (gw && process.env.MONGODB_URL) {
      const client = await MongoClient.connect(process.env.MONGODB_URL);
      try {
        for (const service of ["accounts", "sessions", "refunds", "webhooks"])
          await client.db(`${prefix}_${service}`).dropDatabase();
      } finally {
        await client.close();
      }
    }
  });

  it("when sessions outlive their lifetime, each becomes EXPIRED with exactly one session.expired, and a repeat create returns it without checkout_url", async () => {
    expect(gw.sessionsProcesses).toHaveLength(2);
    const payloads = Array.from({ length: 6 }, () => body());
    const sessions: Created[] = [];
    for (const payload of payloads) sessions.push(await create(payload));
    expect(Date.parse(sessions[0]!.expires_at) - Date.now()).toBeLessThanOrEqual(SESSION_LIFETIME_MS);

    for (const s of sessions)
      await waitForEvent(receiver, s.id, "session.expired", SESSION_LIFETIME_MS + SETTLE_MS);
    // A moment more: a second sweep of the same session by the other replica would show up now.
    await sleep(1_000);
    for (const s of sessions) {
      const expired = expectExactlyOneEvent(receiver, s.id, "session.expired");
      expect(expired.json.data.status).toBe("EXPIRED");
      expect(new Date(expired.json.data.expired_at).toISOString()).toBe(expired.json.data.expired_at);
      expect(Date.parse(expired.json.data.expired_at)).toBeGreaterThanOrEqual(Date.parse(s.expires_at));
      // The link ran out first, and said so once.
      expectExactlyOneEvent(receiver, s.id, "checkout.session.expired");
      expect((await sessionOf(s.id)).status).toBe("EXPIRED");
    }

    const repeat = await api.createSession(payloads[0]);
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body).toMatchObject({ id: sessions[0]!.id, status: "EXPIRED" });
    expect(repeat.body.checkout_url ?? null).toBeNull();

    // Nothing was paid: an expired session cannot be refunded.
    const refund = await api.refund(sessions[0]!.id, { refund_type: "FULL" });
    expectProblem(refund, 422, "invalid-state", `${gw.edgeUrl}/errors`);
  });

  it("when a link expires, checkout.session.expired is sent once, its page says so, and a repeat create mints a new link the buyer pays with", async () => {
    const payload = body();
    const s = await create(payload);
    const linkExpired = await waitForEvent(
      receiver,
      s.id,
      "checkout.session.expired",
      LINK_LIFETIME_MS + SETTLE_MS,
    );
    expect(linkExpired.json.data.session_still_payable).toBe(true);
    expect(new Date(linkExpired.json.data.checkout_expired_at).toISOString()).toBe(
      linkExpired.json.data.checkout_expired_at,
    );
    expect(linkExpired.json.data.status).not.toBe("EXPIRED");

    const oldPage = await fetch(s.checkout_url, { headers: { "accept-language": "en" } });
    expect(oldPage.status).toBe(410);
    expect(await oldPage.text()).toMatch(/<h1>\s*This payment link has expired\s*<\/h1>/);

    const repeat = await api.createSession(payload);
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.id).toBe(s.id);
    expect(repeat.body.checkout_url).toMatch(/\/checkout\/[A-Za-z0-9]{20,}$/);
    expect(repeat.body.checkout_url).not.toBe(s.checkout_url);
    expect((await fetch(repeat.body.checkout_url)).status).toBe(200);

    await payWithCard(repeat.body.checkout_url, { number: VISA_OK });
    expect((await sessionOf(s.id)).status).toBe("SUCCEEDED");
    const succeeded = await waitForEvent(receiver, s.id, "session.succeeded");
    expect(succeeded.json.data).toMatchObject({
      status: "SUCCEEDED",
      amount: "25.500",
      payment: { card_last_four: "4242" },
    });
    expectExactlyOneEvent(receiver, s.id, "checkout.session.expired");
    expectExactlyOneEvent(receiver, s.id, "session.succeeded");
  });

  it("when the late-approval card is approved after the buyer left and the link expired, the session ends SUCCEEDED and the merchant is told once", async () => {
    const s = await create();
    const run = await payWithCard(s.checkout_url, { number: LATE_APPROVAL });
    expect(run.returnStatus).not.toBe(500);
    expect((await sessionOf(s.id)).status).toBe("PROCESSING");

    const succeeded = await waitForEvent(
      receiver,
      s.id,
      "session.succeeded",
      LATE_APPROVAL_DELAY_MS + SETTLE_MS,
    );
    expect(succeeded.json.data).toMatchObject({
      status: "SUCCEEDED",
      payment: { card_brand: "visa", card_last_four: "3220" },
    });
    const detail = await sessionOf(s.id);
    expect(detail.status).toBe("SUCCEEDED");
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0]).toMatchObject({ status: "SUCCEEDED", card_last_four: "3220" });
    const order = await acquirerOrder(run.orderId);
    expect(order.state).toBe("DEPOSITED");
    expect(order.depositedMinor).toBe(25_500n);
    expectExactlyOneEvent(receiver, s.id, "session.succeeded");
    expect(eventsOf(receiver, s.id, "session.late_payment_returned")).toEqual([]);
    expect(eventsOf(receiver, s.id, "session.expired")).toEqual([]);
  });

  it("when the approval arrives after the session expired, the session stays EXPIRED, the payment is reversed at the acquirer, and session.late_payment_returned tells the merchant", async () => {
    const s = await create();
    // Start paying shortly before the session's end, so that the acquirer approves well after
    // the sweeper has expired it (LATE_APPROVAL_DELAY_MS - 2.5 s later).
    await sleep(Math.max(0, Date.parse(s.expires_at) - 2_500 - Date.now()));
    const link = await api.createCheckoutLink(s.id);
    expect(link.status, link.text).toBe(201);
    const run = await payWithCard(link.body.checkout_url, { number: LATE_APPROVAL });
    expect(Date.now()).toBeLessThan(Date.parse(s.expires_at));

    const expired = await waitForEvent(receiver, s.id, "session.expired", SETTLE_MS);
    expect(expired.json.data.status).toBe("EXPIRED");
    const returned = await waitForEvent(
      receiver,
      s.id,
      "session.late_payment_returned",
      LATE_APPROVAL_DELAY_MS + SETTLE_MS,
    );
    const detail = await sessionOf(s.id);
    expect(detail.status).toBe("EXPIRED");
    expect(returned.json.data).toMatchObject({ id: s.id, status: "EXPIRED" });
    expect(returned.json.data.late_payment).toMatchObject({
      attempt_id: detail.attempts[0].id,
      amount: "25.500",
      currency: "TND",
      card_brand: "visa",
      card_last_four: "3220",
      reason: "session_expired",
    });
    expect(["reversal", "refund"]).toContain(returned.json.data.late_payment.method);
    const { approved_at, returned_at } = returned.json.data.late_payment;
    expect(Date.parse(approved_at)).toBeGreaterThanOrEqual(Date.parse(s.expires_at));
    expect(Date.parse(returned_at)).toBeGreaterThanOrEqual(Date.parse(approved_at));
    await expectReturned(returned, run.orderId, 25_500n);

    await sleep(1_000);
    expectExactlyOneEvent(receiver, s.id, "session.expired");
    expectExactlyOneEvent(receiver, s.id, "session.late_payment_returned");
    expect(eventsOf(receiver, s.id, "session.succeeded")).toEqual([]);
  });

  it("when the merchant cancels during an in-flight attempt, the session is CANCELED and the later approval is reversed with session.late_payment_returned", async () => {
    const s = await create();
    const run = await payWithCard(s.checkout_url, { number: LATE_APPROVAL });
    expect((await sessionOf(s.id)).status).toBe("PROCESSING");

    const canceled = await api.cancelSession(s.id);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toMatchObject({ id: s.id, status: "CANCELED" });

    const returned = await waitForEvent(
      receiver,
      s.id,
      "session.late_payment_returned",
      LATE_APPROVAL_DELAY_MS + SETTLE_MS,
    );
    expect(returned.json.data).toMatchObject({ id: s.id, status: "CANCELED" });
    expect(returned.json.data.late_payment).toMatchObject({
      amount: "25.500",
      currency: "TND",
      card_last_four: "3220",
      reason: "session_canceled",
    });
    await expectReturned(returned, run.orderId, 25_500n);
    const detail = await sessionOf(s.id);
    expect(detail.status).toBe("CANCELED");
    expect(returned.json.data.late_payment.attempt_id).toBe(detail.attempts[0].id);
    expectExactlyOneEvent(receiver, s.id, "session.late_payment_returned");
    expect(eventsOf(receiver, s.id, "session.succeeded")).toEqual([]);
  });

  it("when the buyer never comes back from the card page, the attempt is ABANDONED after the acquirer's order timeout and the session is payable again", async () => {
    const s = await create();
    const { cardPageUrl } = await startPayment(s.checkout_url);
    const orderId = decodeURIComponent(new URL(cardPageUrl).pathname.split("/").pop()!);

    const detail = await waitFor(
      async () => {
        const current = await sessionOf(s.id);
        return current.attempts[0]?.status === "ABANDONED" ? current : undefined;
      },
      {
        timeoutMs: SIMULATOR_ORDER_TIMEOUT_MS + 4_000,
        intervalMs: 100,
        message: "the attempt to be ABANDONED",
      },
    );
    expect(Date.now()).toBeLessThan(Date.parse(s.expires_at));
    expect(detail.status).toBe("PENDING");
    expect(detail.attempts).toHaveLength(1);
    expect((await acquirerOrder(orderId)).state).toBe("ABANDONED");
    expect(eventsOf(receiver, s.id, "session.succeeded")).toEqual([]);
  });

  it("when every sessions replica is killed in the middle of a sweep, after the restart no expiry is missed and none is sent twice", async () => {
    // Two batches 2 s apart: the replicas die while sweeping the first (all due, a sweep of
    // 15 takes seconds) and before the second is due, so the restarted ones must do both.
    const early: Created[] = [];
    const late: Created[] = [];
    for (let i = 0; i < 15; i++) early.push(await create());
    await sleep(2_000);
    for (let i = 0; i < 15; i++) late.push(await create());
    const all = [...early, ...late];

    await waitFor(async () => (await sessionOf(early[0]!.id)).status === "EXPIRED", {
      timeoutMs: SESSION_LIFETIME_MS + SETTLE_MS,
      intervalMs: 25,
      message: "the first session to expire",
    });
    await sleep(Math.max(0, Date.parse(early.at(-1)!.expires_at) + 200 - Date.now()));
    await Promise.all(gw.sessionsProcesses.map((p) => p.kill()));
    expect(Date.now()).toBeLessThan(Date.parse(late[0]!.expires_at));
    await gw.restart("sessions");

    await receiver.waitForRequests(
      all.length,
      (r) => r.json?.event === "session.expired" && all.some((s) => s.id === r.json?.data?.id),
      SESSION_LIFETIME_MS + 2 * SETTLE_MS,
    );
    await sleep(1_000);
    const expiredIds = receiver.requests
      .filter((r) => r.json?.event === "session.expired" && all.some((s) => s.id === r.json?.data?.id))
      .map((r) => r.webhookId);
    expect(expiredIds).toHaveLength(all.length);
    expect(new Set(expiredIds).size).toBe(all.length);
    // The receiver never failed a delivery, so no event of the whole run came twice.
    const everyId = receiver.requests.map((r) => r.webhookId);
    expect(new Set(everyId).size).toBe(everyId.length);
    for (const s of all) {
      expect(expectExactlyOneEvent(receiver, s.id, "session.expired").json.data.status).toBe("EXPIRED");
      // Each link ran out before its session did: announced once, even when the replicas were
      // down at the time and the sweep that announces it also expires the session.
      expectExactlyOneEvent(receiver, s.id, "checkout.session.expired");
      expect((await sessionOf(s.id)).status).toBe("EXPIRED");
    }
  });
});
