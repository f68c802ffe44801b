import { ManualClock } from "@gateway/platform";
import { afterEach, describe, expect, it } from "vitest";
import {
  createGcraRateLimiter,
  defaultRateLimitPolicy,
  InMemoryGcraStore,
  type RateLimitPolicy,
} from "../src/index.js";
import {
  admitted,
  checkTimes,
  LIVE_ACCOUNT,
  type LimiterUnderTest,
  limiterOverMemory,
} from "./limiter-test-support.js";

const MERCHANT = "mer_3kTQbV9xLm2P";
const OTHER = "mer_9zYwq1Nn0aBc";

describe("GCRA rate limiter (in-memory store, manual clock)", () => {
  let sut: LimiterUnderTest;
  afterEach(async () => {
    await sut.limiter.close();
  });

  it("when an idle merchant sends at 3x the rate for one second, then the burst is admitted and the rest is paced at the rate", async () => {
    sut = limiterOverMemory();
    const start = sut.clock.now().getTime();
    const arrivals = Array.from({ length: 75 }, (_, i) => Math.floor((i * 1000) / 75));
    const admittedAt: number[] = [];
    let firstDenial: number | undefined;
    for (const at of arrivals) {
      sut.clock.set(start + at);
      const d = await sut.limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
      if (d.allowed) admittedAt.push(at);
      else firstDenial ??= at;
    }
    // Everything up to the first denial was admitted: at least the whole burst of 25.
    const beforeDenial = admittedAt.filter((at) => at < (firstDenial ?? Infinity));
    expect(beforeDenial.length).toBeGreaterThanOrEqual(25);
    expect(beforeDenial.length).toBe(arrivals.filter((at) => at < (firstDenial ?? Infinity)).length);
    // Then one admission per 40 ms emission interval (arrivals come every 13.3 ms, so each gap is 40 ms +- one arrival gap).
    const paced = admittedAt.filter((at) => at > (firstDenial ?? Infinity));
    for (let i = 1; i < paced.length; i++) {
      const gap = (paced[i] as number) - (paced[i - 1] as number);
      expect(gap).toBeGreaterThanOrEqual(40 - 13.34);
      expect(gap).toBeLessThanOrEqual(40 + 13.34);
    }
    // GCRA's bound over the 986 ms span: burst + floor(986 / 40) = 49, and at most one fewer from arrival granularity.
    expect(admittedAt.length).toBeLessThanOrEqual(49);
    expect(admittedAt.length).toBeGreaterThanOrEqual(48);
  });

  it("when the burst is spent, then exactly one request per emission interval is admitted", async () => {
    sut = limiterOverMemory();
    const start = sut.clock.now().getTime();
    expect(admitted(await checkTimes(sut.limiter, 25, { merchantId: MERCHANT, ...LIVE_ACCOUNT }))).toBe(25);
    const denied = await sut.limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
    expect(denied).toMatchObject({
      allowed: false,
      retryAfterMs: 40,
      remaining: 0,
      budget: "account",
      limit: 25,
    });
    const admittedAt: number[] = [];
    for (let at = 1; at <= 200; at++) {
      sut.clock.set(start + at);
      if ((await sut.limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).allowed) admittedAt.push(at);
    }
    expect(admittedAt).toEqual([40, 80, 120, 160, 200]);
  });

  it.each([
    { name: "live account (25/s)", livemode: true, budgets: ["account"] as const, burst: 25 },
    { name: "test refund (2/s)", livemode: false, budgets: ["refund"] as const, burst: 2 },
    { name: "live create (10/s)", livemode: true, budgets: ["create"] as const, burst: 10 },
  ])(
    "when $name is denied, then retrying after retryAfterMs is admitted and 1 ms earlier is not",
    async ({ livemode, budgets, burst }) => {
      sut = limiterOverMemory();
      const request = { merchantId: MERCHANT, livemode, budgets: [...budgets] };
      expect(admitted(await checkTimes(sut.limiter, burst, request))).toBe(burst);
      const denied = await sut.limiter.check(request);
      expect(denied.allowed).toBe(false);
      expect(denied.retryAfterMs).toBeGreaterThan(0);
      sut.clock.advance(denied.retryAfterMs - 1);
      const early = await sut.limiter.check(request);
      expect(early).toMatchObject({ allowed: false, retryAfterMs: 1 });
      sut.clock.advance(1);
      expect((await sut.limiter.check(request)).allowed).toBe(true);
    },
  );

  it("when the emission interval is not a whole number of ms, then retryAfterMs still lands exactly on the first admitted ms", async () => {
    const policy: RateLimitPolicy = structuredClone(defaultRateLimitPolicy);
    policy.live.account = { ratePerSec: 3, burst: 2 }; // T = 333.33 ms
    sut = limiterOverMemory({ policy });
    const request = { merchantId: MERCHANT, ...LIVE_ACCOUNT };
    for (let round = 0; round < 5; round++) {
      let denied = await sut.limiter.check(request);
      while (denied.allowed) denied = await sut.limiter.check(request);
      sut.clock.advance(denied.retryAfterMs - 1);
      expect((await sut.limiter.check(request)).allowed).toBe(false);
      sut.clock.advance(1);
      expect((await sut.limiter.check(request)).allowed).toBe(true);
    }
  });

  it("when live keys spend their budget, then the same account's test keys keep theirs, and the other way round", async () => {
    sut = limiterOverMemory();
    expect(
      admitted(
        await checkTimes(sut.limiter, 30, { merchantId: MERCHANT, livemode: true, budgets: ["account"] }),
      ),
    ).toBe(25);
    const test = await sut.limiter.check({ merchantId: MERCHANT, livemode: false, budgets: ["account"] });
    expect(test).toMatchObject({ allowed: true, limit: 10, remaining: 9 });

    expect(
      admitted(
        await checkTimes(sut.limiter, 20, { merchantId: OTHER, livemode: false, budgets: ["account"] }),
      ),
    ).toBe(10);
    expect(
      await sut.limiter.check({ merchantId: OTHER, livemode: true, budgets: ["account"] }),
    ).toMatchObject({ allowed: true, remaining: 24 });
  });

  it("when one merchant spends its budget, then another merchant is unaffected", async () => {
    sut = limiterOverMemory();
    expect(admitted(await checkTimes(sut.limiter, 40, { merchantId: MERCHANT, ...LIVE_ACCOUNT }))).toBe(25);
    expect(await sut.limiter.check({ merchantId: OTHER, ...LIVE_ACCOUNT })).toMatchObject({
      allowed: true,
      remaining: 24,
    });
  });

  it("when create calls are made, then they draw on both the create and the account budget", async () => {
    sut = limiterOverMemory();
    const creates = await checkTimes(sut.limiter, 4, {
      merchantId: MERCHANT,
      livemode: true,
      budgets: ["account", "create"],
    });
    expect(admitted(creates)).toBe(4);
    // Reported against the tighter budget: create has 10 - 4 = 6 left, account 25 - 4 = 21.
    expect(creates[3]).toMatchObject({ budget: "create", limit: 10, remaining: 6 });
    expect(
      await sut.limiter.check({ merchantId: MERCHANT, livemode: true, budgets: ["account"] }),
    ).toMatchObject({ remaining: 20 });
  });

  it("when the create budget denies a create call, then the account budget is not charged for it", async () => {
    sut = limiterOverMemory();
    const create = {
      merchantId: MERCHANT,
      livemode: true,
      budgets: ["account", "create"] as ["account", "create"],
    };
    expect(admitted(await checkTimes(sut.limiter, 10, create))).toBe(10);
    const denied = await sut.limiter.check(create);
    expect(denied).toMatchObject({ allowed: false, budget: "create", retryAfterMs: 100 });
    // Account: 25 - 10 creates = 15 left before this check, 14 after it.
    expect(
      await sut.limiter.check({ merchantId: MERCHANT, livemode: true, budgets: ["account"] }),
    ).toMatchObject({ allowed: true, remaining: 14 });
  });

  it("when the account budget denies a create call, then the create budget is not charged for it", async () => {
    sut = limiterOverMemory();
    expect(
      admitted(
        await checkTimes(sut.limiter, 25, { merchantId: MERCHANT, livemode: true, budgets: ["account"] }),
      ),
    ).toBe(25);
    const create = {
      merchantId: MERCHANT,
      livemode: true,
      budgets: ["create", "account"] as ["create", "account"],
    };
    expect(await sut.limiter.check(create)).toMatchObject({
      allowed: false,
      budget: "account",
      retryAfterMs: 40,
    });
    sut.clock.advance(40);
    expect((await sut.limiter.check(create)).allowed).toBe(true);
    // Create: only the admitted call counted (10 - 1), so this create-only check leaves 8.
    expect(
      await sut.limiter.check({ merchantId: MERCHANT, livemode: true, budgets: ["create"] }),
    ).toMatchObject({ allowed: true, remaining: 8 });
  });

  it("when both budgets deny, then Retry-After covers the longer wait", async () => {
    sut = limiterOverMemory();
    const refund = {
      merchantId: MERCHANT,
      livemode: false,
      budgets: ["account", "refund"] as ["account", "refund"],
    };
    expect(admitted(await checkTimes(sut.limiter, 2, refund))).toBe(2);
    expect(
      admitted(
        await checkTimes(sut.limiter, 8, { merchantId: MERCHANT, livemode: false, budgets: ["account"] }),
      ),
    ).toBe(8);
    // Test account: T = 100 ms; test refund: T = 500 ms. Both are empty now.
    const denied = await sut.limiter.check(refund);
    expect(denied).toMatchObject({ allowed: false, budget: "refund", retryAfterMs: 500 });
    sut.clock.advance(499);
    expect((await sut.limiter.check(refund)).allowed).toBe(false);
    sut.clock.advance(1);
    expect((await sut.limiter.check(refund)).allowed).toBe(true);
  });

  it("when a budget is idle for its burst window, then it is full again", async () => {
    sut = limiterOverMemory();
    await checkTimes(sut.limiter, 30, { merchantId: MERCHANT, ...LIVE_ACCOUNT });
    const denied = await sut.limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
    expect(denied.resetMs).toBe(1000);
    sut.clock.advance(denied.resetMs);
    expect(admitted(await checkTimes(sut.limiter, 25, { merchantId: MERCHANT, ...LIVE_ACCOUNT }))).toBe(25);
  });

  it("when an allowed decision is made, then it reports the remaining burst and the time until the bucket is full", async () => {
    sut = limiterOverMemory();
    const first = await sut.limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
    expect(first).toEqual({
      allowed: true,
      limit: 25,
      remaining: 24,
      resetMs: 40,
      retryAfterMs: 0,
      budget: "account",
      windowMs: 1000,
      degraded: false,
    });
  });

  it("when two limiters share one store, then they share the budget", async () => {
    const clock = new ManualClock();
    const store = new InMemoryGcraStore({ clock });
    sut = limiterOverMemory({ clock, store });
    const other = createGcraRateLimiter({ store, clock, policy: defaultRateLimitPolicy });
    const request = { merchantId: MERCHANT, ...LIVE_ACCOUNT };
    const decisions = await Promise.all([
      ...Array.from({ length: 40 }, () => sut.limiter.check(request)),
      ...Array.from({ length: 40 }, () => other.check(request)),
    ]);
    expect(admitted(decisions)).toBe(25);
    expect(decisions.every((d) => d.degraded === false)).toBe(true);
    await other.close();
  });

  it("when the request is malformed, then check rejects with a clear error", async () => {
    sut = limiterOverMemory();
    await expect(sut.limiter.check({ merchantId: "", ...LIVE_ACCOUNT })).rejects.toThrow(/merchantId/);
    await expect(sut.limiter.check({ merchantId: MERCHANT, livemode: true, budgets: [] })).rejects.toThrow(
      /at least one budget/,
    );
    await expect(
      sut.limiter.check({ merchantId: MERCHANT, livemode: true, budgets: ["payout" as "account"] }),
    ).rejects.toThrow(/unknown budget "payout"/);
    await expect(
      sut.limiter.check({
        merchantId: MERCHANT,
        livemode: "yes" as unknown as boolean,
        budgets: ["account"],
      }),
    ).rejects.toThrow(/livemode/);
  });

  it("when the limiter is closed, then later checks are refused", async () => {
    sut = limiterOverMemory();
    await sut.limiter.close();
    await expect(sut.limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).rejects.toThrow(/closed/);
  });

  it("when the policy is invalid, then the limiter is not created", () => {
    const policy: RateLimitPolicy = structuredClone(defaultRateLimitPolicy);
    policy.test.refund = { ratePerSec: 0, burst: 1 };
    sut = limiterOverMemory();
    expect(() => createGcraRateLimiter({ store: sut.store, clock: sut.clock, policy })).toThrow(
      /test\.refund rate/,
    );
  });
});
