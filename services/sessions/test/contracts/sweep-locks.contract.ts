import { describe, expect, it } from "vitest";
import type { SweepLocks } from "../../src/app/ports.js";

/** What every SweepLocks adapter must do; run against memory and MongoDB/FerretDB. */
export function sweepLocksContract(adapter: string, open: () => Promise<SweepLocks>): void {
  describe(`SweepLocks contract: ${adapter}`, () => {
    const now = new Date(Date.UTC(2026, 10, 22, 10));
    const later = (ms: number) => new Date(now.getTime() + ms);
    const key = () => `sweep|ps_${Math.random().toString(36).slice(2)}`;

    it("when one holder has a claim, then another cannot take it until it runs out or is released", async () => {
      const locks = await open();
      const k = key();
      expect(await locks.acquire(k, "a", later(1_000), now)).toBe(true);
      expect(await locks.acquire(k, "b", later(2_000), later(999))).toBe(false);
      expect(await locks.acquire(k, "a", later(2_000), later(999))).toBe(false);
      await locks.release(k, "b"); // not b's: nothing happens
      expect(await locks.acquire(k, "b", later(2_000), later(500))).toBe(false);
      await locks.release(k, "a");
      expect(await locks.acquire(k, "b", later(2_000), later(500))).toBe(true);
    });

    it("when a holder died, then its claim is taken over once it ran out, and the dead holder's release does nothing", async () => {
      const locks = await open();
      const k = key();
      expect(await locks.acquire(k, "dead", later(1_000), now)).toBe(true);
      expect(await locks.acquire(k, "heir", later(5_000), later(1_000))).toBe(true);
      await locks.release(k, "dead");
      expect(await locks.acquire(k, "third", later(6_000), later(2_000))).toBe(false);
    });

    it("when many holders race for one claim, then exactly one gets it", async () => {
      const locks = await open();
      const k = key();
      const won = await Promise.all(
        Array.from({ length: 20 }, (_, i) => locks.acquire(k, `h${i}`, later(1_000), now)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it("when many holders race for a claim that ran out, then exactly one takes it over", async () => {
      const locks = await open();
      const k = key();
      await locks.acquire(k, "dead", later(1_000), now);
      const won = await Promise.all(
        Array.from({ length: 20 }, (_, i) => locks.acquire(k, `h${i}`, later(9_000), later(2_000))),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
    });
  });
}
