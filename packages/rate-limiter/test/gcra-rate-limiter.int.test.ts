import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Clock, ManualClock, systemClock } from "@gateway/platform";
import { type LocalServer, startNatsServer, waitFor } from "@gateway/testkit";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createGcraRateLimiter,
  createNatsKvGcraStore,
  type Decision,
  defaultRateLimitPolicy,
  type RateLimiter,
} from "../src/index.js";
import { connectNats, destroyBucket, uniqueBucketName } from "./nats-test-support.js";

const LIVE_ACCOUNT = { livemode: true, budgets: ["account" as const] };
const BURST = 25;
const RATE = 25;

function uniqueMerchant(): string {
  return `mer_${randomBytes(6).toString("hex")}`;
}

/** A limiter with its own NATS connection: what one edge replica has. */
async function replica(
  bucket: string,
  clock: Clock = systemClock,
): Promise<{ nc: NatsConnection; limiter: RateLimiter }> {
  const nc = await connectNats();
  const store = await createNatsKvGcraStore({ nc, bucket });
  return {
    nc,
    limiter: createGcraRateLimiter({ store, policy: defaultRateLimitPolicy, clock }),
  };
}

describe("GCRA rate limiter over NATS JetStream KV, two replicas", () => {
  let bucket: string;
  let replicas: { nc: NatsConnection; limiter: RateLimiter }[];

  beforeEach(async () => {
    bucket = uniqueBucketName();
    replicas = [await replica(bucket), await replica(bucket)];
  });
  afterEach(async () => {
    for (const r of replicas) await r.limiter.close();
    await destroyBucket(replicas[0]!.nc, bucket);
    for (const r of replicas) await r.nc.close();
  });

  it("when both replicas fire a flood at one merchant at once, then together they admit the burst plus the rate over the elapsed time, no more", async () => {
    const merchantId = uniqueMerchant();
    const started = Date.now();
    const decisions = await Promise.all(
      replicas.flatMap((r) =>
        Array.from({ length: 100 }, () => r.limiter.check({ merchantId, ...LIVE_ACCOUNT })),
      ),
    );
    const elapsedMs = Date.now() - started;
    const admittedCount = decisions.filter((d) => d.allowed).length;
    expect(decisions.every((d) => d.degraded === false)).toBe(true);
    expect(admittedCount).toBeGreaterThanOrEqual(BURST);
    expect(admittedCount).toBeLessThanOrEqual(BURST + Math.floor((RATE * elapsedMs) / 1000) + 1);
  });

  it("when both replicas send steadily for a second, then the admitted total is the burst plus the rate times the time", async () => {
    const merchantId = uniqueMerchant();
    const decisions: Decision[] = [];
    const started = Date.now();
    const sender = async (limiter: RateLimiter): Promise<void> => {
      while (Date.now() - started < 1_000) {
        decisions.push(await limiter.check({ merchantId, ...LIVE_ACCOUNT }));
        await sleep(2);
      }
    };
    // Four senders per replica, so each replica has concurrent checks on the same merchant too.
    await Promise.all(replicas.flatMap((r) => Array.from({ length: 4 }, () => sender(r.limiter))));
    const elapsedMs = Date.now() - started;
    const admittedCount = decisions.filter((d) => d.allowed).length;
    const denied = decisions.length - admittedCount;
    expect(denied).toBeGreaterThan(0);
    expect(decisions.every((d) => d.degraded === false)).toBe(true);
    const bound = BURST + (RATE * elapsedMs) / 1000;
    expect(admittedCount).toBeLessThanOrEqual(Math.floor(bound) + 1);
    // Senders arrive far faster than the rate, so nearly every emission slot is used.
    expect(admittedCount).toBeGreaterThanOrEqual(Math.floor(bound) - 3);
  });

  it("when one replica spent the budget, then the other replica's denial carries an accurate Retry-After", async () => {
    // Both replicas read one stopped clock, so no emission slot refills while the first spends
    // the burst: on the wall clock a slot comes every 40 ms, and a slow machine between the
    // first's denial and the second's check would see it refill.
    const clock = new ManualClock();
    const [first, second] = [await replica(bucket, clock), await replica(bucket, clock)];
    replicas.push(first, second);
    const merchantId = uniqueMerchant();
    let admittedCount = 0;
    while ((await first.limiter.check({ merchantId, ...LIVE_ACCOUNT })).allowed) admittedCount++;
    expect(admittedCount).toBe(BURST);
    const denied = await second.limiter.check({ merchantId, ...LIVE_ACCOUNT });
    expect(denied).toMatchObject({ allowed: false, degraded: false, budget: "account" });
    expect(denied.retryAfterMs).toBe(1000 / RATE);
    clock.advance(denied.retryAfterMs - 1);
    expect((await second.limiter.check({ merchantId, ...LIVE_ACCOUNT })).allowed).toBe(false);
    clock.advance(1);
    expect((await second.limiter.check({ merchantId, ...LIVE_ACCOUNT })).allowed).toBe(true);
  });
});

describe("GCRA rate limiter when NATS is unreachable", () => {
  it("when the replica's NATS connection is closed, then decisions still come from the local limiter, degraded, without throwing", async () => {
    const bucket = uniqueBucketName();
    const nc = await connectNats();
    const store = await createNatsKvGcraStore({ nc, bucket });
    const limiter = createGcraRateLimiter({ store, policy: defaultRateLimitPolicy, clock: systemClock });
    const merchantId = uniqueMerchant();
    expect((await limiter.check({ merchantId, ...LIVE_ACCOUNT })).degraded).toBe(false);
    await destroyBucket(nc, bucket);
    await nc.close();

    const started = performance.now();
    const decision = await limiter.check({ merchantId, ...LIVE_ACCOUNT });
    expect(performance.now() - started).toBeLessThan(300);
    expect(decision).toMatchObject({ allowed: true, degraded: true });
    const more: Decision[] = [];
    for (let i = 0; i < 40; i++) more.push(await limiter.check({ merchantId, ...LIVE_ACCOUNT }));
    // Local limiter: 25 minus the 2 already admitted through this replica (plus what refilled meanwhile).
    expect(more.filter((d) => d.allowed).length).toBeLessThanOrEqual(BURST);
    expect(more.some((d) => !d.allowed && d.retryAfterMs > 0)).toBe(true);
    expect(more.every((d) => d.degraded === true)).toBe(true);
    await limiter.close();
  });

  describe("with a NATS server of the test's own", () => {
    let server: LocalServer;
    let nc: NatsConnection;
    let limiter: RateLimiter;

    beforeEach(async () => {
      server = await startNatsServer();
      nc = await connectNats(server.url);
      const store = await createNatsKvGcraStore({ nc, bucket: uniqueBucketName() });
      limiter = createGcraRateLimiter({
        store,
        policy: defaultRateLimitPolicy,
        clock: systemClock,
        storeRetryIntervalMs: 500,
      });
    });
    afterEach(async () => {
      await limiter.close();
      await nc.close();
      await server.stop();
    });

    it("when the server dies, then each decision comes within the timeout from the local limiter, and when it is back, from the store again", async () => {
      const merchantId = uniqueMerchant();
      expect((await limiter.check({ merchantId, ...LIVE_ACCOUNT })).degraded).toBe(false);
      await server.kill();

      const latencies: number[] = [];
      const decisions: Decision[] = [];
      for (let i = 0; i < 30; i++) {
        const started = performance.now();
        decisions.push(await limiter.check({ merchantId, ...LIVE_ACCOUNT }));
        latencies.push(performance.now() - started);
      }
      expect(decisions.every((d) => d.degraded === true)).toBe(true);
      expect(Math.max(...latencies)).toBeLessThan(400);
      expect(decisions.filter((d) => d.allowed).length).toBeLessThanOrEqual(BURST);
      expect(decisions.some((d) => !d.allowed)).toBe(true);

      await server.restart();
      const shared = await waitFor(
        async () => {
          const d = await limiter.check({ merchantId: uniqueMerchant(), ...LIVE_ACCOUNT });
          return d.degraded === false ? d : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 200, message: "decisions from the store again after the restart" },
      );
      expect(shared.allowed).toBe(true);
    });
  });
});
