import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { type LocalServer, startNatsServer, waitFor } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, type HttpResult, merchantApi, request } from "./support/http.js";
import { createVerifiedMerchant } from "./support/merchants.js";
import { expectProblem } from "./support/problem.js";

// docs/api/limits.md#rate-limits end to end: two edge processes behind no balancer, sharing their limits through
// their own NATS JetStream KV (so this file can stop it), accounts and sessions as processes.
// GATEWAY_RATE_LIMITS is blank, so the default limits apply (the launcher turns them off otherwise).
const ADMIN_TOKEN = "adm_e2e_rate_limits_token_4f1c9a";
const prefix = `e2e_rl_${Date.now().toString(36)}`;
const TEST_ACCOUNT = { rate: 10, burst: 10 };
const TEST_CREATE = { rate: 5, burst: 5 };
const TEST_REFUND = { rate: 2, burst: 2 };
/** Requests admitted may differ from burst + rate x elapsed by this much (timing between client and edges). */
const TOLERANCE = 2;

interface Sent {
  edge: number;
  res: HttpResult;
}

describe("rate limits across edge replicas, distributed mode", () => {
  let gw: DistributedGateway;
  let edgeNats: LocalServer;
  let admin: AdminApi;
  let merchantCount = 0;
  const errorsUrl = () => `${gw.edgeUrl}/errors`;
  const newMerchant = () => createVerifiedMerchant(admin, `Rate Limited Shop ${++merchantCount}`);
  const list = (edge: number, key: string) => merchantApi(gw.edgeUrls[edge]!, key).listSessions();
  let references = 0;
  const create = (edge: number, key: string) =>
    merchantApi(gw.edgeUrls[edge]!, key).createSession({
      merchant_reference: `rl-${++references}`,
      amount: "1.000",
    });

  beforeAll(async () => {
    edgeNats = await startNatsServer();
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: prefix,
      edgeReplicas: 2,
      env: {
        GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
        GATEWAY_DEMO: "0",
        GATEWAY_RATE_LIMITS: "",
        // Accounts encrypts stored terminal passwords with it.
        GATEWAY_SECRETS_KEY: randomBytes(32).toString("base64"),
      },
      serviceEnv: { edge: { NATS_URL: edgeNats.url } },
    });
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
  });

  afterAll(async () => {
    await gw?.stop();
    await edgeNats?.stop();
  });

  /**
   * Sends `count` requests at `perSecond`, alternating between the edges, without waiting for
   * answers; elapsedMs runs from the first send to the last.
   */
  async function pacedBurst(count: number, perSecond: number, send: (edge: number) => Promise<HttpResult>) {
    const started = performance.now();
    const pending: Array<Promise<Sent>> = [];
    for (let i = 0; i < count; i++) {
      const due = started + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const edge = i % gw.edgeUrls.length;
      pending.push(send(edge).then((res) => ({ edge, res })));
    }
    const elapsedMs = performance.now() - started;
    return { sent: await Promise.all(pending), elapsedMs };
  }

  /** Each edge authenticates the key once (cached after); then the budget is left to refill. */
  async function warmUp(key: string): Promise<void> {
    for (let edge = 0; edge < gw.edgeUrls.length; edge++) expect((await list(edge, key)).status).toBe(200);
    await sleep(1_200);
  }

  function admittedBounds(limit: { rate: number; burst: number }, elapsedMs: number, alreadyUsed = 0) {
    const expected = limit.burst - alreadyUsed + (limit.rate * elapsedMs) / 1000;
    return { min: Math.floor(expected) - TOLERANCE, max: Math.floor(expected) + TOLERANCE };
  }

  function expectRateLimited(res: HttpResult): number {
    expectProblem(res, 429, "rate-limit-exceeded", errorsUrl());
    expect(res.body.title).toBe("Rate Limit Exceeded");
    const retryAfter = res.headers.get("retry-after");
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    return Number(retryAfter);
  }

  async function degradedTotals(): Promise<number[]> {
    return Promise.all(
      gw.edgeManagementUrls.map(async (url) => {
        const metrics = await request(`${url}/metrics`);
        const match = /^gateway_rate_limit_degraded_total (\d+)$/m.exec(metrics.text);
        if (!match) throw new Error(`${url}/metrics has no gateway_rate_limit_degraded_total`);
        return Number(match[1]);
      }),
    );
  }

  it("when one test key sends 3x its rate through both edges, then they admit the one account-wide budget between them", async () => {
    const shop = await newMerchant();
    await warmUp(shop.testKey);

    const { sent, elapsedMs } = await pacedBurst(60, 3 * TEST_ACCOUNT.rate, (edge) =>
      list(edge, shop.testKey),
    );
    const admitted = sent.filter((s) => s.res.status === 200);
    const { min, max } = admittedBounds(TEST_ACCOUNT, elapsedMs);
    expect(admitted.length, `admitted of 60 in ${Math.round(elapsedMs)} ms`).toBeGreaterThanOrEqual(min);
    expect(admitted.length).toBeLessThanOrEqual(max);
    // Each edge alone would have admitted about as many: the budget was shared, not doubled.
    for (const edge of [0, 1]) {
      expect(admitted.some((s) => s.edge === edge)).toBe(true);
      expect(sent.some((s) => s.edge === edge && s.res.status === 429)).toBe(true);
    }
    const refused = sent.filter((s) => s.res.status !== 200);
    for (const { res } of refused) expectRateLimited(res);
    for (const { res } of admitted)
      expect(res.headers.get("ratelimit-limit")).toBe(String(TEST_ACCOUNT.burst));

    // Exhaust it again, then wait exactly Retry-After: the next request passes.
    let last: HttpResult;
    do last = await list(0, shop.testKey);
    while (last.status === 200);
    const retryAfter = expectRateLimited(last);
    await sleep(retryAfter * 1000);
    expect((await list(1, shop.testKey)).status).toBe(200);
  });

  it("when the test budget of an account is spent, then its live keys and other accounts are unaffected", async () => {
    const shop = await newMerchant();
    const other = await newMerchant();
    await warmUp(shop.testKey);
    for (let edge = 0; edge < 2; edge++) {
      expect((await list(edge, shop.liveKey)).status).toBe(200);
      expect((await list(edge, other.testKey)).status).toBe(200);
    }
    await sleep(1_200);

    let refused: HttpResult | undefined;
    for (let i = 0; i < 30 && refused === undefined; i++) {
      const res = await list(i % 2, shop.testKey);
      if (res.status === 429) refused = res;
    }
    expectRateLimited(refused!);
    // The live budget (25 at once) is its own: 20 in a row pass on both edges.
    const live = await Promise.all(Array.from({ length: 20 }, (_, i) => list(i % 2, shop.liveKey)));
    expect(live.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(live[0]!.headers.get("ratelimit-limit")).toBe("25");
    const others = await Promise.all(Array.from({ length: 8 }, (_, i) => list(i % 2, other.testKey)));
    expect(others.map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it("when sessions are created at 3x the create rate, then the create budget (5/s) holds across both edges", async () => {
    const shop = await newMerchant();
    await warmUp(shop.testKey);
    const { sent, elapsedMs } = await pacedBurst(30, 3 * TEST_CREATE.rate, (edge) =>
      create(edge, shop.testKey),
    );
    const created = sent.filter((s) => s.res.status === 201);
    const { min, max } = admittedBounds(TEST_CREATE, elapsedMs);
    expect(created.length, `created of 30 in ${Math.round(elapsedMs)} ms`).toBeGreaterThanOrEqual(min);
    expect(created.length).toBeLessThanOrEqual(max);
    for (const { res } of sent.filter((s) => s.res.status !== 201)) {
      expectRateLimited(res);
      expect(res.body.detail).toContain("create limit");
    }
  });

  it("when creates spend part of the account-wide budget, then fewer other requests pass, and a spent create budget leaves reads allowed", async () => {
    const shop = await newMerchant();
    await warmUp(shop.testKey);
    const started = performance.now();
    const creates = await Promise.all(
      Array.from({ length: TEST_CREATE.burst }, (_, i) => create(i % 2, shop.testKey)),
    );
    expect(creates.map((r) => r.status)).toEqual(Array(TEST_CREATE.burst).fill(201));
    // Create budget spent, account-wide budget not: the next create is refused, a read passes.
    const sixth = await create(0, shop.testKey);
    expectRateLimited(sixth);
    expect(sixth.body.detail).toContain("create limit");
    expect((await list(1, shop.testKey)).status).toBe(200);

    // The account-wide budget had 10; 5 creates and 1 read used 6 of it.
    const reads = await Promise.all(
      Array.from({ length: TEST_ACCOUNT.burst }, (_, i) => list(i % 2, shop.testKey)),
    );
    const elapsedMs = performance.now() - started;
    const passed = reads.filter((r) => r.status === 200).length;
    const { min, max } = admittedBounds(TEST_ACCOUNT, elapsedMs, TEST_CREATE.burst + 1);
    expect(passed, `reads passed within ${Math.round(elapsedMs)} ms`).toBeGreaterThanOrEqual(
      Math.max(0, min),
    );
    expect(passed).toBeLessThanOrEqual(max);
    const refused = reads.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) expect(res.body.detail).toContain("account-wide limit");
  });

  it("when refunds come faster than the refund budget (2/s), then it holds across both edges and reads still pass", async () => {
    const shop = await newMerchant();
    await warmUp(shop.testKey);
    const session = await create(0, shop.testKey);
    expect(session.status).toBe(201);
    const refund = (edge: number) =>
      merchantApi(gw.edgeUrls[edge]!, shop.testKey).refund(session.body.id, { refund_type: "FULL" });
    const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => refund(i % 2)));
    // Admitted refunds reach the refunds service (an unpaid session: 422 invalid-state); the rest
    // are refused by the refund budget before any work is done.
    const admitted = answers.filter((r) => r.status !== 429);
    expect(admitted).toHaveLength(TEST_REFUND.burst);
    for (const res of admitted) expectProblem(res, 422, "invalid-state", errorsUrl());
    for (const res of answers.filter((r) => r.status === 429)) {
      expectRateLimited(res);
      expect(res.body.detail).toContain("refund limit");
    }
    expect((await list(1, shop.testKey)).status).toBe(200);
  });

  it("when the edges' NATS stops, then requests are still answered, limited per edge, and shared again once NATS is back", async () => {
    const shop = await newMerchant();
    const probe = await newMerchant();
    await warmUp(shop.testKey);
    for (let edge = 0; edge < 2; edge++) expect((await list(edge, probe.testKey)).status).toBe(200);
    const degradedBefore = await degradedTotals();

    await edgeNats.kill();
    try {
      // Each edge now decides alone: each admits about one budget's worth.
      for (let edge = 0; edge < 2; edge++) {
        const started = performance.now();
        const answers: HttpResult[] = [];
        for (let i = 0; i < 15; i++) answers.push(await list(edge, shop.testKey));
        const statuses = answers.map((r) => r.status);
        expect(
          statuses.every((s) => s === 200 || s === 429),
          statuses.join(","),
        ).toBe(true);
        const passed = statuses.filter((s) => s === 200).length;
        const { max } = admittedBounds(TEST_ACCOUNT, performance.now() - started);
        expect(passed, `edge ${edge} admitted`).toBeGreaterThanOrEqual(TEST_ACCOUNT.burst - TOLERANCE);
        expect(passed).toBeLessThanOrEqual(max);
      }
      const degradedDuring = await degradedTotals();
      for (const edge of [0, 1]) expect(degradedDuring[edge]!).toBeGreaterThan(degradedBefore[edge]!);
    } finally {
      await edgeNats.restart();
    }

    // Once both edges decide on the shared store again, a round of requests adds no degraded decision.
    await waitFor(
      async () => {
        const before = await degradedTotals();
        for (let edge = 0; edge < 2; edge++) await list(edge, probe.testKey);
        const after = await degradedTotals();
        return after.every((n, edge) => n === before[edge]);
      },
      { timeoutMs: 30_000, intervalMs: 500, message: "the edges never used NATS again after it restarted" },
    );
    const fresh = await newMerchant();
    await warmUp(fresh.testKey);
    const { sent, elapsedMs } = await pacedBurst(30, 3 * TEST_ACCOUNT.rate, (edge) =>
      list(edge, fresh.testKey),
    );
    const { min, max } = admittedBounds(TEST_ACCOUNT, elapsedMs);
    const admitted = sent.filter((s) => s.res.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(min);
    expect(admitted).toBeLessThanOrEqual(max);
  });
});
