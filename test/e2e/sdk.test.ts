import { Gateway, GatewayConnectionError, GatewayProblemError, type Session } from "@gateway/sdk";
import { waitFor } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "./support/fault-proxy.js";
import {
  type GatewayTarget,
  startDistributedTarget,
  startEmbeddedTarget,
} from "./support/gateway-targets.js";
import { payWithCard } from "./support/pay-with-card.js";

// @gateway/sdk against a running gateway (embedded mode, one process): every operation of
// docs/api/openapi.json, its problem errors, its retries seen through a proxy that loses answers
// after the gateway acted, and its list iterator over 250 sessions.
const DEMO_KEY = "sk_test_SdkE2eDemo01abcdefghijklmnopqrstuvwxyzABCDEF";

let target: GatewayTarget;
let proxy: FaultProxy;
let gateway: Gateway;
const run = Date.now().toString(36);

beforeAll(async () => {
  target = await startEmbeddedTarget(DEMO_KEY);
  proxy = await startFaultProxy(target.url);
  gateway = new Gateway({ apiKey: DEMO_KEY, baseUrl: target.url, baseDelayMs: 50 });
});

afterAll(async () => {
  await proxy?.close();
  await target?.stop();
});

async function paidSession(reference: string, amount: string): Promise<Session> {
  const session = await gateway.sessions.create({ merchant_reference: reference, amount });
  const paid = await payWithCard(session.checkout_url!, { number: "4242424242424242" });
  expect(paid.returnStatus, paid.returnPage.slice(0, 300)).toBe(303);
  expect((await gateway.sessions.retrieve(session.id)).status).toBe("SUCCEEDED");
  return session;
}

describe("@gateway/sdk against the embedded gateway", () => {
  it("creates, repeats a create idempotently, retrieves, lists, links and cancels a session", async () => {
    const params = { merchant_reference: `sdk-ops-${run}`, amount: "12.500", description: "Two books" };
    const created = await gateway.sessions.create(params);
    expect(created).toMatchObject({
      merchant_reference: params.merchant_reference,
      amount: "12.500",
      status: "CREATED",
    });
    expect(created.livemode).toBe(false);
    expect((await gateway.sessions.create(params)).id).toBe(created.id);
    expect(await gateway.sessions.retrieve(created.id)).toMatchObject({ id: created.id, amount: "12.500" });

    const page = await gateway.sessions.list({ merchant_reference: params.merchant_reference });
    expect(page.data.map((s) => s.id)).toEqual([created.id]);
    expect(page.has_more).toBe(false);

    const link = await gateway.sessions.createCheckoutLink(created.id);
    expect(link.checkout_url).toMatch(/\/checkout\//);

    const canceled = await gateway.sessions.cancel(created.id);
    expect(canceled.status).toBe("CANCELED");
    expect((await gateway.sessions.cancel(created.id)).status).toBe("CANCELED");
  });

  it("refunds a paid session and lists its webhook deliveries, per session and per account", async () => {
    const session = await paidSession(`sdk-refund-${run}`, "10.000");
    const refund = await gateway.sessions.refund(session.id, { refund_type: "PARTIAL", amount: "2.500" });
    expect(refund).toMatchObject({ refunded_amount: "2.500", automated_refund: true });

    // The demo merchant has no webhook endpoint: the events are still recorded as deliveries.
    const forSession = await waitFor(async () => {
      const list = await gateway.sessions.deliveries(session.id);
      return list.data.length > 0 ? list : undefined;
    });
    expect(forSession.data.map((d) => d.event)).toContain("session.succeeded");
    const forAccount = await gateway.deliveries.list({ session_id: session.id });
    expect(forAccount.data.map((d) => d.id).sort()).toEqual(
      expect.arrayContaining(forSession.data.map((d) => d.id).sort()),
    );
    const walked = [];
    for await (const delivery of gateway.deliveries.listAll({ session_id: session.id, limit: "1" }))
      walked.push(delivery.id);
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked.length).toBeGreaterThanOrEqual(forSession.data.length);

    const original = forSession.data.find((d) => d.event === "session.succeeded")!;
    const resent = await gateway.deliveries.resend(original.id);
    expect(resent).toMatchObject({ event_id: original.event_id, status: "PENDING" });
    expect(resent.attempt_number).toBeGreaterThan(original.attempt_number);
    expect(await gateway.deliveries.resend("whd_unknown").catch((e: unknown) => e)).toMatchObject({
      status: 404,
    });
  });

  it("throws a typed problem carrying the validation errors[], and the problem of a 404 and a 401", async () => {
    const invalid = await gateway.sessions
      .create({ merchant_reference: `sdk-bad-${run}`, amount: "12.3456", buyer_email: "not-an-email" })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(GatewayProblemError);
    const problem = invalid as GatewayProblemError;
    expect(problem.status).toBe(422);
    expect(problem.code).toBe("validation-error");
    expect(problem.type).toBe(`${target.url}/errors/validation-error`);
    expect(problem.errors.map((e) => `${e.field}:${e.code}`)).toEqual(
      expect.arrayContaining(["amount:invalid_precision", "buyer_email:invalid"]),
    );

    const missing = await gateway.sessions.retrieve("ps_000000000000000000000000").catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: "not-found" });

    const stranger = new Gateway({
      apiKey: "sk_test_NotAKey000000000000000000000000000000000000",
      baseUrl: target.url,
    });
    expect(await stranger.sessions.list().catch((e: unknown) => e)).toMatchObject({ status: 401 });
  });

  it("retries an injected 503 on create and a 429 on refund after the gateway acted: one session, one refund", async () => {
    const retries: string[] = [];
    const viaProxy = new Gateway({
      apiKey: DEMO_KEY,
      baseUrl: proxy.url,
      baseDelayMs: 50,
      onRetry: (r) =>
        retries.push(`${r.request.method} ${new URL(r.request.url).pathname} ${r.reason} ${r.delayMs}`),
    });
    const reference = `sdk-retry-${run}`;
    proxy.injectOnce("POST", /\/sessions\/$/, { kind: "status", status: 503, retryAfter: "1" });
    const created = await viaProxy.sessions.create({ merchant_reference: reference, amount: "10.000" });
    expect(retries).toEqual(["POST /api/v1/gateway/sessions/ HTTP 503 1000"]);
    expect(proxy.seen.filter((r) => r.path === "/api/v1/gateway/sessions/").map((r) => r.answered)).toEqual([
      503, 200,
    ]);
    expect((await gateway.sessions.list({ merchant_reference: reference })).data.map((s) => s.id)).toEqual([
      created.id,
    ]);

    const paid = await payWithCard(created.checkout_url!, { number: "4242424242424242" });
    expect(paid.returnStatus).toBe(303);
    const refundPath = `/api/v1/gateway/sessions/${created.id}/refund/`;
    proxy.injectOnce("POST", /\/refund\/$/, { kind: "status", status: 429, retryAfter: "1" });
    const refund = await viaProxy.sessions.refund(created.id, { refund_type: "PARTIAL", amount: "4.000" });
    expect(retries.at(-1)).toBe(`POST ${refundPath} HTTP 429 1000`);
    const sent = proxy.seen.filter((r) => r.path === refundPath);
    expect(sent.map((r) => r.answered)).toEqual([429, 201]);
    expect(sent[0]!.headers["idempotency-key"]).toMatch(/^sdk_/);
    expect(sent[1]!.headers["idempotency-key"]).toBe(sent[0]!.headers["idempotency-key"]);
    expect(refund.refunded_amount).toBe("4.000");
    // Exactly one 4.000 refund was made: the remaining 6.000 is refundable, and not a millime more.
    expect(
      (await gateway.sessions.refund(created.id, { refund_type: "PARTIAL", amount: "6.000" }))
        .refunded_amount,
    ).toBe("6.000");
    const over = await gateway.sessions
      .refund(created.id, { refund_type: "PARTIAL", amount: "0.001" })
      .catch((e: unknown) => e);
    expect(over).toBeInstanceOf(GatewayProblemError);
  });

  it("resends a create whose connection dropped after the gateway created it, and finds the same session", async () => {
    const viaProxy = new Gateway({ apiKey: DEMO_KEY, baseUrl: proxy.url, baseDelayMs: 50 });
    const reference = `sdk-drop-${run}`;
    proxy.injectOnce("POST", /\/sessions\/$/, { kind: "drop" });
    const created = await viaProxy.sessions.create({ merchant_reference: reference, amount: "1.000" });
    expect((await gateway.sessions.list({ merchant_reference: reference })).data.map((s) => s.id)).toEqual([
      created.id,
    ]);
  });

  it("does not resend a refund without an Idempotency-Key whose connection dropped: it reports the failure", async () => {
    const session = await paidSession(`sdk-nokey-${run}`, "5.000");
    const viaProxy = new Gateway({ apiKey: DEMO_KEY, baseUrl: proxy.url, baseDelayMs: 50 });
    const refundPath = `/api/v1/gateway/sessions/${session.id}/refund/`;
    proxy.injectOnce("POST", /\/refund\/$/, { kind: "drop" });
    const failure = await viaProxy.sessions
      .refund(session.id, { refund_type: "PARTIAL", amount: "1.000" }, { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GatewayConnectionError);
    expect(proxy.seen.filter((r) => r.path === refundPath).map((r) => r.answered)).toEqual(["dropped"]);
  });

  it("walks 250 sessions page by page with the async iterator, without gaps or repeats", async () => {
    const prefix = `sdk-iter-${run}-`;
    const created = new Set<string>();
    for (let i = 0; i < 250; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          gateway.sessions.create({ merchant_reference: `${prefix}${i + j}`, amount: "1.000" }),
        ),
      );
      for (const s of batch) created.add(s.id);
    }
    expect(created.size).toBe(250);
    const walked: string[] = [];
    for await (const session of gateway.sessions.listAll({ limit: "9" }))
      if (session.merchant_reference.startsWith(prefix)) walked.push(session.id);
    expect(walked.length).toBe(250);
    expect(new Set(walked)).toEqual(created);
  }, 240_000);
});

describe("@gateway/sdk against the distributed gateway (a process per service, MongoDB, NATS)", () => {
  let distributed: GatewayTarget;
  beforeAll(async () => {
    distributed = await startDistributedTarget(`e2e_sdk_${run}`);
  });
  afterAll(async () => {
    await distributed?.stop();
  });

  it("creates, retrieves, walks, pays, refunds and cancels through the edge, with the same typed errors", async () => {
    const sdk = new Gateway({ apiKey: distributed.demoKey, baseUrl: distributed.url });
    const created = await sdk.sessions.create({ merchant_reference: `sdk-dist-${run}`, amount: "8.000" });
    expect((await sdk.sessions.retrieve(created.id)).merchant_reference).toBe(`sdk-dist-${run}`);
    const walked: string[] = [];
    for await (const s of sdk.sessions.listAll({ merchant_reference: `sdk-dist-${run}` })) walked.push(s.id);
    expect(walked).toEqual([created.id]);
    const paid = await payWithCard(created.checkout_url!, { number: "4242424242424242" });
    expect(paid.returnStatus).toBe(303);
    await waitFor(async () => (await sdk.sessions.retrieve(created.id)).status === "SUCCEEDED" || undefined);
    expect((await sdk.sessions.refund(created.id, { refund_type: "FULL" })).refunded_amount).toBe("8.000");
    const open = await sdk.sessions.create({ merchant_reference: `sdk-dist-open-${run}`, amount: "1.000" });
    expect((await sdk.sessions.cancel(open.id)).status).toBe("CANCELED");
    const refused = await sdk.sessions.refund(open.id, { refund_type: "FULL" }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, code: "invalid-state" });
  });
});
