import { ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { type GcraStore, InMemoryGcraStore, rateLimitKey } from "../src/index.js";
import { InterferingStore } from "./fault-injecting-stores.js";
import { LIVE_ACCOUNT, limiterOverMemory } from "./limiter-test-support.js";
import { capturingLogger, WARN } from "./log-capture.js";

const MERCHANT = "mer_Contended01";
const CREATE = {
  merchantId: MERCHANT,
  livemode: true,
  budgets: ["account", "create"] as ["account", "create"],
};

/** What another replica does: write the key at `tat`, whatever is there. */
async function overwrite(store: GcraStore, key: string, tat: number): Promise<void> {
  const current = await store.get(key);
  if (!(await store.compareAndSet(key, tat, current?.revision, 60_000)))
    throw new Error("test interference lost its own race");
}

describe("GCRA rate limiter under compare-and-set conflicts", () => {
  it("when another replica wrote a key between our read and write and it still allows, then the request is admitted, charged once", async () => {
    const clock = new ManualClock();
    const inner = new InMemoryGcraStore({ clock });
    const now = clock.now().getTime();
    const createKey = rateLimitKey("create", MERCHANT, true);
    // The other replica admits one create (TAT moves one interval, 100 ms, ahead).
    const store = new InterferingStore(inner, createKey, (s) => overwrite(s, createKey, now + 100));
    const { limiter } = limiterOverMemory({ clock, store });
    expect(await limiter.check(CREATE)).toMatchObject({ allowed: true, budget: "create", remaining: 8 });
    expect((await inner.get(createKey))?.tat).toBe(now + 200);
    expect((await inner.get(rateLimitKey("account", MERCHANT, true)))?.tat).toBe(now + 40);
  });

  it("when a conflict on a later budget turns into a denial, then the budgets already written are given back", async () => {
    const clock = new ManualClock();
    const inner = new InMemoryGcraStore({ clock });
    const now = clock.now().getTime();
    const createKey = rateLimitKey("create", MERCHANT, true);
    // Meanwhile other replicas spent the whole create budget (TAT a full window ahead).
    const store = new InterferingStore(inner, createKey, (s) => overwrite(s, createKey, now + 1_000));
    const { limiter } = limiterOverMemory({ clock, store });
    expect(await limiter.check(CREATE)).toMatchObject({
      allowed: false,
      budget: "create",
      retryAfterMs: 100,
    });
    const account = await inner.get(rateLimitKey("account", MERCHANT, true));
    expect(account === undefined || account.tat <= now).toBe(true);
    expect(await limiter.check({ merchantId: MERCHANT, ...LIVE_ACCOUNT })).toMatchObject({
      allowed: true,
      remaining: 24,
    });
  });

  it("when a key keeps conflicting, then after the bounded attempts the request is denied, nothing is kept, and it is logged", async () => {
    const clock = new ManualClock();
    const inner = new InMemoryGcraStore({ clock });
    const now = clock.now().getTime();
    const createKey = rateLimitKey("create", MERCHANT, true);
    let tat = now;
    // Every write of ours loses to another replica that admits one more create each time.
    const store = new InterferingStore(inner, createKey, (s) => overwrite(s, createKey, (tat += 1)), 100);
    const { logger, lines } = capturingLogger();
    const { limiter } = limiterOverMemory({ clock, store, logger, maxConflictAttempts: 4 });
    const decision = await limiter.check(CREATE);
    expect(decision).toMatchObject({ allowed: false, budget: "create", retryAfterMs: 100, degraded: false });
    // 1 account write + 4 create attempts + 1 give-back on account.
    expect(store.casCalls).toBe(6);
    const account = await inner.get(rateLimitKey("account", MERCHANT, true));
    expect(account === undefined || account.tat <= now).toBe(true);
    expect(lines.find((l) => l.level === WARN)?.msg).toMatch(/4 compare-and-set conflicts in a row/);
  });
});
