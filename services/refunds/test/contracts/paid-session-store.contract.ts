import { newId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import type { PaidSessionStore } from "../../src/app/ports.js";
import type { PaidSessionRecord } from "../../src/domain/paid-session-record.js";

export function paidSessionFixture(overrides: Partial<PaidSessionRecord> = {}): PaidSessionRecord {
  return {
    scope: { merchantId: newId("mer"), livemode: false },
    sessionId: newId("ps"),
    // Beyond 2^53: stored and read back exactly.
    amountMinor: 9_007_199_254_740_993n,
    currency: "TND",
    acquirerOrderId: `ord-${newId("ps")}`,
    merchantReference: "order.$7",
    orderNumber: "GW-XYZ789",
    webhookUrl: "https://shop.example/hooks",
    source: "session_event",
    recordedAt: new Date(Date.UTC(2026, 0, 1)),
    ...overrides,
  };
}

/** The one contract every PaidSessionStore adapter meets (in memory, MongoDB/FerretDB). */
export function paidSessionStoreContract(name: string, open: () => Promise<PaidSessionStore>): void {
  describe(`PaidSessionStore (${name})`, () => {
    it("when a paid session is recorded, then it reads back exactly in its own scope only", async () => {
      const store = await open();
      const record = paidSessionFixture();
      expect(await store.record(record)).toEqual({ stored: true, record });
      expect(await store.find(record.scope, record.sessionId)).toEqual(record);
      expect(await store.find({ ...record.scope, livemode: true }, record.sessionId)).toBeUndefined();
      expect(
        await store.find({ merchantId: newId("mer"), livemode: false }, record.sessionId),
      ).toBeUndefined();
      expect(await store.find(record.scope, newId("ps"))).toBeUndefined();
    });

    it("when the session is recorded again, even with other figures, then the first record stands and is returned", async () => {
      const store = await open();
      const first = paidSessionFixture({ source: "sessions_service" });
      await store.record(first);
      const again = await store.record({
        ...first,
        amountMinor: 1n,
        source: "session_event",
        recordedAt: new Date(),
      });
      expect(again).toEqual({ stored: false, record: first });
      expect(await store.find(first.scope, first.sessionId)).toEqual(first);
    });

    it("when the event and a refund record one session at once, then one record is stored and both see it", async () => {
      const store = await open();
      const base = paidSessionFixture();
      const contenders = Array.from({ length: 8 }, (_, i) => ({
        ...base,
        source: i % 2 === 0 ? ("session_event" as const) : ("sessions_service" as const),
      }));
      const results = await Promise.all(contenders.map((c) => store.record(c)));
      expect(results.filter((r) => r.stored)).toHaveLength(1);
      const winner = results.find((r) => r.stored)!.record;
      for (const r of results) expect(r.record).toEqual(winner);
    });
  });
}
