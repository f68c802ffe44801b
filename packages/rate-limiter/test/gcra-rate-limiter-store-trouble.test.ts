import { GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { InMemoryGcraStore } from "../src/index.js";
import { HangingStore, SwitchableStore } from "./fault-injecting-stores.js";
import { admitted, checkTimes, LIVE_ACCOUNT, limiterOverMemory } from "./limiter-test-support.js";
import { capturingLogger, INFO, WARN } from "./log-capture.js";

const MERCHANT = "mer_5hJk8LmNpQ2r";

function brokenStore(clock: ManualClock): SwitchableStore {
  const store = new SwitchableStore(new InMemoryGcraStore({ clock }));
  store.broken = true;
  return store;
}

describe("GCRA rate limiter when the store is unreachable", () => {
  it("when the store fails, then requests are decided by the local limiter with the same policy and flagged degraded", async () => {
    const clock = new ManualClock();
    const { limiter } = limiterOverMemory({ clock, store: brokenStore(clock) });
    const decisions = await checkTimes(limiter, 30, { merchantId: MERCHANT, ...LIVE_ACCOUNT });
    expect(admitted(decisions)).toBe(25);
    expect(decisions.every((d) => d.degraded === true)).toBe(true);
    expect(decisions[25]).toMatchObject({ allowed: false, retryAfterMs: 40, budget: "account" });
    clock.advance(40);
    expect(await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).toMatchObject({
      allowed: true,
      degraded: true,
    });
  });

  it("when the store keeps failing, then it warns at most once per 10 s, counting the local decisions", async () => {
    const clock = new ManualClock();
    const { logger, lines } = capturingLogger();
    const { limiter } = limiterOverMemory({ clock, store: brokenStore(clock), logger });
    for (let i = 0; i < 9; i++) {
      await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
      clock.advance(1_000);
    }
    expect(lines.filter((l) => l.level === WARN)).toHaveLength(1);
    clock.advance(1_000);
    await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
    const warnings = lines.filter((l) => l.level === WARN);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatchObject({
      localDecisionsSinceLastWarning: 9,
      err: { message: expect.stringContaining("ECONNREFUSED") },
    });
    expect(warnings[1]?.msg).toMatch(/deciding on this replica's local limiter/);
  });

  it("when the store hangs, then the decision comes from the local limiter within the timeout", async () => {
    const clock = new ManualClock();
    const store = new HangingStore();
    const { limiter } = limiterOverMemory({ clock, store, storeTimeoutMs: 50 });
    const started = performance.now();
    const decision = await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
    const elapsed = performance.now() - started;
    expect(decision).toMatchObject({ allowed: true, degraded: true });
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(250);
  });

  it("when a failure opened the breaker, then checks skip the store until the retry interval, and then one check probes it", async () => {
    const clock = new ManualClock();
    const store = new HangingStore();
    const { limiter } = limiterOverMemory({ clock, store, storeTimeoutMs: 200, storeRetryIntervalMs: 1_000 });
    await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT });
    const callsAfterFailure = store.calls;

    const started = performance.now();
    const bypassed = await Promise.all(
      Array.from({ length: 10 }, (_, i) => limiter.check({ merchantId: `mer_other${i}`, ...LIVE_ACCOUNT })),
    );
    // Far below the 200 ms timeout: nobody waited for the store.
    expect(performance.now() - started).toBeLessThan(100);
    expect(bypassed.every((d) => d.degraded === true && d.allowed)).toBe(true);
    expect(store.calls).toBe(callsAfterFailure);

    clock.advance(1_000);
    // Two merchants at once: one probes (and waits for the timeout), the other is decided locally at once.
    const [probe, other] = await Promise.all([
      limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT }),
      limiter.check({ merchantId: "mer_other0", ...LIVE_ACCOUNT }),
    ]);
    expect([probe.degraded, other.degraded]).toEqual([true, true]);
    expect(store.calls).toBe(callsAfterFailure + 1);
  });

  it("when the store comes back, then decisions are shared again and the recovery is logged", async () => {
    const clock = new ManualClock();
    const store = brokenStore(clock);
    const { logger, lines } = capturingLogger();
    const { limiter } = limiterOverMemory({ clock, store, logger, storeRetryIntervalMs: 1_000 });
    expect((await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).degraded).toBe(true);
    store.broken = false;
    expect((await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).degraded).toBe(true);
    clock.advance(1_000);
    expect(await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).toMatchObject({
      allowed: true,
      degraded: false,
    });
    expect(lines.find((l) => l.level === INFO)?.msg).toMatch(/reachable again/);
  });

  it("when the store fails over, then the local limiter continues from what this replica had admitted", async () => {
    const clock = new ManualClock();
    const store = new SwitchableStore(new InMemoryGcraStore({ clock }));
    const { limiter } = limiterOverMemory({ clock, store });
    expect(admitted(await checkTimes(limiter, 20, { merchantId: MERCHANT, ...LIVE_ACCOUNT }))).toBe(20);
    store.broken = true;
    const degraded = await checkTimes(limiter, 10, { merchantId: MERCHANT, ...LIVE_ACCOUNT });
    expect(admitted(degraded)).toBe(5);
  });

  it("when configured fail-closed, then a store failure is a retryable SERVICE_UNAVAILABLE error", async () => {
    const clock = new ManualClock();
    const { limiter } = limiterOverMemory({ clock, store: brokenStore(clock), onStoreError: "fail-closed" });
    const error = await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).reason).toBe("SERVICE_UNAVAILABLE");
    // The breaker is open now: still an error, not a silent admission.
    await expect(limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).rejects.toBeInstanceOf(
      GatewayError,
    );
  });

  it("when the local fallback is turned off, then every request is admitted while degraded", async () => {
    const clock = new ManualClock();
    const { limiter } = limiterOverMemory({ clock, store: brokenStore(clock), localFallback: false });
    const decisions = await checkTimes(limiter, 40, { merchantId: MERCHANT, ...LIVE_ACCOUNT });
    expect(admitted(decisions)).toBe(40);
    expect(decisions.every((d) => d.degraded === true)).toBe(true);
  });

  it("when checks of one merchant queue behind a hanging one, then each still gets a decision within its own timeout", async () => {
    const clock = new ManualClock();
    const store = new HangingStore();
    const { limiter } = limiterOverMemory({ clock, store, storeTimeoutMs: 40 });
    const started = performance.now();
    const decisions = await Promise.all(
      Array.from({ length: 5 }, () => limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })),
    );
    expect(performance.now() - started).toBeLessThan(200);
    expect(decisions.every((d) => d.degraded === true)).toBe(true);
    expect(admitted(decisions)).toBe(5);
  });
});
