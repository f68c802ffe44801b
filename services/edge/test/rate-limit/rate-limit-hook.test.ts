import { metricsRegistry } from "@gateway/platform";
import { type GcraStore, parseRateLimitConfig } from "@gateway/rate-limiter";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { bearer } from "../fakes/edge-test-harness.js";
import { expectProblem } from "../problem-assertions.js";
import {
  createRateLimitedEdge,
  LIST,
  merchantWithKeys,
  type RateLimitedEdge,
  repeat,
  SESSIONS,
  sessionBody,
  statuses,
} from "./rate-limited-edge.js";

const RATE_LIMIT_HEADERS = ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"];

describe("rate limits on the gateway API (spec section 8)", () => {
  let t: RateLimitedEdge;

  afterEach(async () => {
    await t?.app.close();
    await t?.limiter?.close();
  });

  const list = (key: string) => t.app.inject({ method: "GET", url: LIST, headers: bearer(key) });
  let references = 0;
  const create = (key: string, payload = sessionBody(`order-${++references}`)) =>
    t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...bearer(key), "content-type": "application/json" },
      payload,
    });

  function expectRateLimited(res: LightMyRequestResponse): Record<string, unknown> {
    const doc = expectProblem(res, 429, "rate-limit-exceeded", "Rate Limit Exceeded");
    expect(res.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    return doc;
  }

  describe("account-wide budget", () => {
    it("when a test key sends more than 10 requests at once, then the first 10 pass and the rest get 429 rate-limit-exceeded", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      const responses = await repeat(12, () => list(testKey));
      expect(statuses(responses)).toEqual([...Array(10).fill(200), 429, 429]);
      expect(responses.slice(0, 10).map((r) => r.headers["ratelimit-remaining"])).toEqual([
        "9",
        "8",
        "7",
        "6",
        "5",
        "4",
        "3",
        "2",
        "1",
        "0",
      ]);
      const doc = expectRateLimited(responses[10]!);
      expect(doc.detail).toBe(
        "Too many requests: the account-wide limit of this account's test keys allows 10 per second. Retry after 1 s.",
      );
      expect(doc.instance).toBe(LIST);
    });

    it("when a request is refused, then Retry-After is the whole seconds until it would pass, rounded up", async () => {
      // One request every 2 s: after one, the next passes exactly 2 s later.
      t = createRateLimitedEdge({ policy: parseRateLimitConfig("test.account=0.5/1") });
      const { testKey } = await merchantWithKeys(t.accounts);
      expect((await list(testKey)).statusCode).toBe(200);
      t.clock.advance(300);
      const refused = await list(testKey);
      expectRateLimited(refused);
      // 1.7 s left, rounded up to 2: waiting less than that is still refused, waiting that long passes.
      expect(refused.headers["retry-after"]).toBe("2");
      t.clock.advance(1_699);
      expect((await list(testKey)).statusCode).toBe(429);
      t.clock.advance(1);
      expect((await list(testKey)).statusCode).toBe(200);
    });

    it("when Retry-After seconds have passed after a burst, then the next request passes", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      const refused = (await repeat(11, () => list(testKey))).at(-1)!;
      expect(refused.statusCode).toBe(429);
      t.clock.advance(Number(refused.headers["retry-after"]) * 1000);
      expect((await list(testKey)).statusCode).toBe(200);
    });

    it("when the answer is 2xx or another error, then it carries the RateLimit headers too", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      const ok = await list(testKey);
      const missing = await t.app.inject({
        method: "GET",
        url: `${SESSIONS}ps_missing/`,
        headers: bearer(testKey),
      });
      const invalid = await create(testKey, JSON.stringify({ amount: "1.000" }));
      expect([ok.statusCode, missing.statusCode, invalid.statusCode]).toEqual([200, 404, 422]);
      for (const res of [ok, missing, invalid]) {
        for (const name of RATE_LIMIT_HEADERS)
          expect(res.headers[name], `${name} on ${res.statusCode}`).toBeDefined();
        expect(res.headers["retry-after"]).toBeUndefined();
      }
      expect(ok.headers).toMatchObject({
        "ratelimit-limit": "10",
        "ratelimit-remaining": "9",
        "ratelimit-reset": "1",
        "ratelimit-policy": "10;w=1",
      });
      // The create call reports the budget closest to running out: create (5, one used).
      expect(invalid.headers).toMatchObject({ "ratelimit-limit": "5", "ratelimit-remaining": "4" });
    });

    it("when the live key of the same account is used, then it has its own budget (25/s), shared by every live key", async () => {
      t = createRateLimitedEdge();
      const shop = await merchantWithKeys(t.accounts);
      const secondLive = await t.accounts.createApiKey({ merchantId: shop.merchantId, livemode: true });
      expect(statuses(await repeat(11, () => list(shop.testKey))).at(-1)).toBe(429);
      const live = await repeat(13, () => list(shop.liveKey));
      expect(live.every((r) => r.statusCode === 200)).toBe(true);
      expect(live[0]!.headers["ratelimit-limit"]).toBe("25");
      // A second live key draws on the same live budget: 12 more pass, then 429.
      const second = await repeat(13, () => list(secondLive.secret));
      expect(statuses(second)).toEqual([...Array(12).fill(200), 429]);
    });

    it("when one account is over its limit, then another account is unaffected", async () => {
      t = createRateLimitedEdge();
      const busy = await merchantWithKeys(t.accounts);
      const quiet = await merchantWithKeys(t.accounts);
      expect(statuses(await repeat(11, () => list(busy.testKey))).at(-1)).toBe(429);
      expect(statuses(await repeat(10, () => list(quiet.testKey)))).toEqual(Array(10).fill(200));
    });
  });

  describe("create budget", () => {
    it("when sessions are created, then each draws on both the create (5/s) and the account-wide (10/s) budget", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      const creates = await repeat(6, () => create(testKey));
      expect(statuses(creates)).toEqual([201, 201, 201, 201, 201, 429]);
      expect(expectRateLimited(creates[5]!).detail).toContain(
        "the create limit of this account's test keys allows 5 per second",
      );
      // The account-wide budget has 5 left: the 5 creates were counted there too.
      expect(statuses(await repeat(6, () => list(testKey)))).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it("when a request is refused, then it consumes nothing from any budget", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      await repeat(5, () => create(testKey));
      expect(statuses(await repeat(20, () => create(testKey)))).toEqual(Array(20).fill(429));
      expect(statuses(await repeat(6, () => list(testKey)))).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it("when a create is refused, then it is answered before its body is read", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      await repeat(5, () => create(testKey));
      expectRateLimited(await create(testKey, "{ not json"));
    });

    it("when checkout links are requested, then they share the create budget with session creates", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      const session = (await create(testKey)).json() as { id: string };
      const checkout = () =>
        t.app.inject({
          method: "POST",
          url: `${SESSIONS}${session.id}/checkout/`,
          headers: { ...bearer(testKey), "content-type": "application/json" },
          payload: "{}",
        });
      // Whatever the handler answers, the limiter ran first: 4 more fit in the create budget of 5.
      const answers = await repeat(5, checkout);
      expect(
        answers.slice(0, 4).every((r) => r.statusCode !== 429 && r.headers["ratelimit-limit"] !== undefined),
      ).toBe(true);
      expect(expectRateLimited(answers[4]!).detail).toContain("the create limit");
    });

    it("when the live mode creates, then its create budget is 10/s", async () => {
      t = createRateLimitedEdge();
      const { liveKey } = await merchantWithKeys(t.accounts);
      expect(statuses(await repeat(11, () => create(liveKey)))).toEqual([...Array(10).fill(201), 429]);
    });
  });

  describe("who is counted", () => {
    it("when the API key is missing or wrong, then the answer is 401 without RateLimit headers and no budget is spent", async () => {
      t = createRateLimitedEdge();
      const { testKey } = await merchantWithKeys(t.accounts);
      const wrong = `${testKey.slice(0, -4)}zzzz`;
      const refused = [
        ...(await repeat(15, () => list(wrong))),
        ...(await repeat(15, () => t.app.inject({ method: "GET", url: LIST }))),
      ];
      for (const res of refused) {
        expectProblem(res, 401, "unauthorized", "Unauthorized");
        for (const name of RATE_LIMIT_HEADERS) expect(res.headers[name]).toBeUndefined();
      }
      expect(statuses(await repeat(10, () => list(testKey)))).toEqual(Array(10).fill(200));
    });

    it("when a request is not a gateway endpoint, then it is neither limited nor given RateLimit headers", async () => {
      t = createRateLimitedEdge();
      const health = await repeat(30, () => t.app.inject({ method: "GET", url: "/healthz" }));
      expect(health.every((r) => r.statusCode === 200 && r.headers["ratelimit-limit"] === undefined)).toBe(
        true,
      );
    });
  });

  describe("GATEWAY_RATE_LIMITS=off", () => {
    it("when limits are off, then nothing is refused and no RateLimit headers are sent", async () => {
      t = createRateLimitedEdge({ policy: "off" });
      const { testKey } = await merchantWithKeys(t.accounts);
      const responses = [
        ...(await repeat(30, () => list(testKey))),
        ...(await repeat(12, () => create(testKey))),
      ];
      expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
      for (const name of RATE_LIMIT_HEADERS) expect(responses[0]!.headers[name]).toBeUndefined();
    });
  });

  describe("shared store unreachable", () => {
    it("when the store fails, then requests are still answered, limited by this replica, and counted as degraded", async () => {
      const unreachable: GcraStore = {
        get: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:4222")),
        compareAndSet: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:4222")),
      };
      t = createRateLimitedEdge({ store: unreachable });
      const { testKey } = await merchantWithKeys(t.accounts);
      const before = await degradedCount();
      const responses = await repeat(11, () => list(testKey));
      expect(statuses(responses)).toEqual([...Array(10).fill(200), 429]);
      // No header tells clients about it: the limits they see are still the limits.
      expect(responses[0]!.headers["ratelimit-limit"]).toBe("10");
      expect((await degradedCount()) - before).toBe(11);
      expect(t.logLines.some((line) => line.includes("rate limit store unavailable"))).toBe(true);
    });
  });
});

async function degradedCount(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric("gateway_rate_limit_degraded_total")?.get();
  return metric?.values[0]?.value ?? 0;
}
