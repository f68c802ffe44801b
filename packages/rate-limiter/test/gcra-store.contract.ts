import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GcraStore } from "../src/index.js";

/** One adapter under test, opened fresh for every test. */
export interface GcraStoreHarness {
  store: GcraStore;
  /** Lets `ms` pass for the store's expiry (a ManualClock, or real waiting). */
  passTime(ms: number): Promise<void>;
  close(): Promise<void>;
}

export interface GcraStoreContractOptions {
  /** Opens a store whose keys may expire `ttlMs` after their last write. */
  open(o: { ttlMs: number }): Promise<GcraStoreHarness>;
  /** The shortest TTL the adapter supports, used by the expiry test. */
  shortTtlMs: number;
}

const LONG_TTL_MS = 60_000;
const T0 = Date.UTC(2026, 0, 1);

/** The GcraStore port's contract: every adapter must pass it. */
export function describeGcraStoreContract(adapter: string, options: GcraStoreContractOptions): void {
  describe(`GcraStore contract: ${adapter}`, () => {
    let harness: GcraStoreHarness;
    let store: GcraStore;

    beforeEach(async () => {
      harness = await options.open({ ttlMs: LONG_TTL_MS });
      store = harness.store;
    });
    afterEach(async () => {
      await harness.close();
    });

    it("when a key was never written, then get returns undefined", async () => {
      expect(await store.get("rl.account.mer_none.live")).toBeUndefined();
    });

    it("when the key is absent, then a create succeeds and get returns its TAT and a revision", async () => {
      expect(await store.compareAndSet("rl.account.mer_a.live", T0 + 40, undefined, LONG_TTL_MS)).toBe(true);
      const got = await store.get("rl.account.mer_a.live");
      expect(got?.tat).toBe(T0 + 40);
      expect(got?.revision).toBeGreaterThan(0);
    });

    it("when the key exists, then a create conflicts and the stored TAT stays", async () => {
      await store.compareAndSet("rl.account.mer_a.live", T0 + 40, undefined, LONG_TTL_MS);
      expect(await store.compareAndSet("rl.account.mer_a.live", T0 + 999, undefined, LONG_TTL_MS)).toBe(
        false,
      );
      expect((await store.get("rl.account.mer_a.live"))?.tat).toBe(T0 + 40);
    });

    it("when the revision read is still current, then compare-and-set replaces the TAT under a new revision", async () => {
      await store.compareAndSet("rl.account.mer_a.live", T0 + 40, undefined, LONG_TTL_MS);
      const read = await store.get("rl.account.mer_a.live");
      expect(await store.compareAndSet("rl.account.mer_a.live", T0 + 80, read?.revision, LONG_TTL_MS)).toBe(
        true,
      );
      const after = await store.get("rl.account.mer_a.live");
      expect(after?.tat).toBe(T0 + 80);
      expect(after?.revision).not.toBe(read?.revision);
    });

    it("when someone wrote since the read, then compare-and-set with the old revision conflicts", async () => {
      await store.compareAndSet("rl.account.mer_a.live", T0 + 40, undefined, LONG_TTL_MS);
      const stale = await store.get("rl.account.mer_a.live");
      expect(await store.compareAndSet("rl.account.mer_a.live", T0 + 80, stale?.revision, LONG_TTL_MS)).toBe(
        true,
      );
      expect(await store.compareAndSet("rl.account.mer_a.live", T0 + 120, stale?.revision, LONG_TTL_MS)).toBe(
        false,
      );
      expect((await store.get("rl.account.mer_a.live"))?.tat).toBe(T0 + 80);
    });

    it("when the key is absent, then compare-and-set with a revision conflicts", async () => {
      expect(await store.compareAndSet("rl.account.mer_none.live", T0, 1, LONG_TTL_MS)).toBe(false);
      expect(await store.get("rl.account.mer_none.live")).toBeUndefined();
    });

    it("when many writers race from the same revision, then exactly one wins", async () => {
      await store.compareAndSet("rl.account.mer_a.live", T0, undefined, LONG_TTL_MS);
      const read = await store.get("rl.account.mer_a.live");
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.compareAndSet("rl.account.mer_a.live", T0 + i + 1, read?.revision, LONG_TTL_MS),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await store.get("rl.account.mer_a.live"))?.tat).toBe(T0 + winner + 1);
    });

    it("when many writers race to create the same key, then exactly one wins", async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.compareAndSet("rl.create.mer_a.test", T0 + i, undefined, LONG_TTL_MS),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it("when TATs are fractional, then they read back exactly", async () => {
      const tat = T0 + 1000 / 3;
      await store.compareAndSet("rl.refund.mer_a.live", tat, undefined, LONG_TTL_MS);
      expect((await store.get("rl.refund.mer_a.live"))?.tat).toBe(tat);
    });

    it("when two keys are written, then each keeps its own TAT and revision", async () => {
      await store.compareAndSet("rl.account.mer_a.live", T0 + 1, undefined, LONG_TTL_MS);
      await store.compareAndSet("rl.account.mer_a.test", T0 + 2, undefined, LONG_TTL_MS);
      const live = await store.get("rl.account.mer_a.live");
      const test = await store.get("rl.account.mer_a.test");
      expect([live?.tat, test?.tat]).toEqual([T0 + 1, T0 + 2]);
      // A revision of one key is no licence to write another.
      expect(await store.compareAndSet("rl.account.mer_a.live", T0 + 3, test?.revision, LONG_TTL_MS)).toBe(
        false,
      );
    });

    it("when a key is not a valid store key, then the store rejects it", async () => {
      await expect(store.get("rl.account.mer a.live")).rejects.toThrow(/invalid GCRA store key/);
      await expect(store.compareAndSet(".rl.account", T0, undefined, LONG_TTL_MS)).rejects.toThrow(
        /invalid GCRA store key/,
      );
    });

    it("when the TAT is not a finite number, then the write is rejected", async () => {
      await expect(
        store.compareAndSet("rl.account.mer_a.live", Number.NaN, undefined, LONG_TTL_MS),
      ).rejects.toThrow(/finite/);
    });
  });

  describe(`GcraStore contract: ${adapter}, expiry`, () => {
    let harness: GcraStoreHarness;

    beforeEach(async () => {
      harness = await options.open({ ttlMs: options.shortTtlMs });
    });
    afterEach(async () => {
      await harness.close();
    });

    it("when a key is not written for its TTL, then it reads as absent and can be created again", async () => {
      const { store } = harness;
      await store.compareAndSet("rl.account.mer_idle.live", T0, undefined, options.shortTtlMs);
      await harness.passTime(options.shortTtlMs * 2);
      expect(await store.get("rl.account.mer_idle.live")).toBeUndefined();
      expect(
        await store.compareAndSet("rl.account.mer_idle.live", T0 + 1, undefined, options.shortTtlMs),
      ).toBe(true);
    });
  });
}
