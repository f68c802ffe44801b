import { setTimeout as sleep } from "node:timers/promises";
import { Kvm } from "@nats-io/kv";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNatsKvGcraStore } from "../src/index.js";
import { describeGcraStoreContract } from "./gcra-store.contract.js";
import { connectNats, destroyBucket, uniqueBucketName } from "./nats-test-support.js";

describeGcraStoreContract("NATS JetStream KV", {
  shortTtlMs: 1_000,
  async open({ ttlMs }) {
    const nc = await connectNats();
    const bucket = uniqueBucketName();
    const store = await createNatsKvGcraStore({ nc, bucket, ttlMs });
    return {
      store,
      passTime: (ms) => sleep(ms),
      async close() {
        await destroyBucket(nc, bucket);
        await nc.close();
      },
    };
  },
});

describe("NATS KV GCRA store", () => {
  let nc: NatsConnection;
  let bucket: string;

  beforeEach(async () => {
    nc = await connectNats();
    bucket = uniqueBucketName();
  });
  afterEach(async () => {
    await destroyBucket(nc, bucket);
    await nc.close();
  });

  it("when the store is created, then the bucket keeps one value per key and expires idle keys after the TTL", async () => {
    await createNatsKvGcraStore({ nc, bucket, ttlMs: 30_000 });
    const status = await (await new Kvm(nc).open(bucket)).status();
    expect(status.history).toBe(1);
    expect(status.ttl).toBe(30_000);
  });

  it("when a second replica creates the store on an existing bucket, then both see the same values", async () => {
    const first = await createNatsKvGcraStore({ nc, bucket });
    const second = await createNatsKvGcraStore({ nc, bucket });
    await first.compareAndSet("rl.account.mer_shared.live", 1234.5, undefined, 1_000);
    expect((await second.get("rl.account.mer_shared.live"))?.tat).toBe(1234.5);
  });

  it("when a write asks to live longer than the bucket TTL, then it is refused (the key would vanish mid-window)", async () => {
    const store = await createNatsKvGcraStore({ nc, bucket, ttlMs: 5_000 });
    await expect(store.compareAndSet("rl.account.mer_a.live", 1, undefined, 5_001)).rejects.toThrow(
      /bucket TTL/,
    );
  });

  it("when a key holds something that is not a TAT, then reading it fails loudly", async () => {
    const store = await createNatsKvGcraStore({ nc, bucket });
    const kv = await new Kvm(nc).open(bucket);
    await kv.put("rl.account.mer_bad.live", "not-a-number");
    await expect(store.get("rl.account.mer_bad.live")).rejects.toThrow(/not a TAT/);
  });

  it("when a key was deleted, then it reads as absent and can be created again", async () => {
    const store = await createNatsKvGcraStore({ nc, bucket });
    await store.compareAndSet("rl.account.mer_del.live", 10, undefined, 1_000);
    const kv = await new Kvm(nc).open(bucket);
    await kv.delete("rl.account.mer_del.live");
    expect(await store.get("rl.account.mer_del.live")).toBeUndefined();
    expect(await store.compareAndSet("rl.account.mer_del.live", 20, undefined, 1_000)).toBe(true);
    expect((await store.get("rl.account.mer_del.live"))?.tat).toBe(20);
  });
});
