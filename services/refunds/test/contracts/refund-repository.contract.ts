import { newId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import type { RefundRepository, Settlement } from "../../src/app/ports.js";
import type { Refund } from "../../src/domain/refund.js";
import { refundEventTypeFor } from "../../src/domain/refund-events.js";

export function refundFixture(overrides: Partial<Refund> = {}): Refund {
  const id = newId("re");
  return {
    id,
    sessionId: newId("ps"),
    scope: { merchantId: newId("mer"), livemode: false },
    type: "PARTIAL",
    // Beyond 2^53: stored and read back exactly.
    amountMinor: 9_007_199_254_740_993n,
    currency: "TND",
    reason: "damaged",
    metadataJson: '{"a.b":{"$x":1}}',
    status: "PENDING_MANUAL",
    automated: false,
    acquirerErrorMessage: "awaiting",
    externalRefundId: id,
    method: "REFUND",
    sessionMerchantReference: "order.$42",
    sessionOrderNumber: "GW-ABC123",
    sessionWebhookUrl: "https://shop.example/hooks",
    createdAt: new Date(Date.UTC(2026, 0, 1)),
    updatedAt: new Date(Date.UTC(2026, 0, 1)),
    ...overrides,
  };
}

/** A settlement with an event whose payload names it, so tests can tell whose event was stored. */
export function settlementFixture(
  status: Settlement["status"],
  changes: Partial<Omit<Settlement, "status" | "event">> = {},
): Settlement {
  const eventId = newId("evt");
  const at = changes.updatedAt ?? new Date(Date.UTC(2026, 0, 2));
  return {
    status,
    ...changes,
    updatedAt: at,
    event: {
      eventId,
      type: refundEventTypeFor(status),
      occurredAt: at,
      payload: new TextEncoder().encode(`payload of ${eventId}`),
    },
  };
}

/** The one contract every RefundRepository adapter meets (in memory, MongoDB/FerretDB). */
export function refundRepositoryContract(name: string, open: () => Promise<RefundRepository>): void {
  describe(`RefundRepository (${name})`, () => {
    /** This refund's pending events (the store is shared with other tests). */
    const pendingOf = async (repo: RefundRepository, refundId: string) =>
      (await repo.findPendingOutbox(10_000)).filter((e) => e.refundId === refundId);

    it("when a refund is stored, then it reads back exactly in its own scope only", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      expect(await repo.findById(refund.scope, refund.id)).toEqual(refund);
      expect(await repo.findById({ ...refund.scope, livemode: true }, refund.id)).toBeUndefined();
      expect(await repo.findById({ merchantId: newId("mer"), livemode: false }, refund.id)).toBeUndefined();
      expect(await repo.findByIdAnyScope(refund.id)).toEqual(refund);
    });

    it("when the id repeats, then the insert reports it and stores nothing", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      expect(await repo.insert(refund)).toBe(false);
    });

    it("when the acquirer's answer is recorded on a pending refund, then it stays pending with the reason; on a settled one, nothing changes", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      const at = new Date(Date.UTC(2026, 0, 3));
      const answer = {
        automated: false as const,
        acquirerErrorMessage: "Connection refused",
        method: "REVERSAL" as const,
        updatedAt: at,
      };
      expect(await repo.recordAcquirerAnswer(refund.id, answer)).toEqual({
        ...refund,
        acquirerErrorMessage: "Connection refused",
        method: "REVERSAL",
        updatedAt: at,
      });
      await repo.settle(refund.id, settlementFixture("FAILED", { resolutionNote: "no" }));
      expect(
        await repo.recordAcquirerAnswer(refund.id, { ...answer, acquirerErrorMessage: "late" }),
      ).toBeUndefined();
      expect((await repo.findByIdAnyScope(refund.id))?.acquirerErrorMessage).toBe("Connection refused");
      expect(await repo.recordAcquirerAnswer("re_missing", answer)).toBeUndefined();
    });

    it("when a pending refund is settled, then its status and its event are stored together and the event waits for the relay", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      const settlement = settlementFixture("SUCCEEDED", {
        automated: true,
        acquirerErrorMessage: "",
        method: "REVERSAL",
      });
      const result = await repo.settle(refund.id, settlement);
      const settled = {
        ...refund,
        status: "SUCCEEDED",
        automated: true,
        acquirerErrorMessage: "",
        method: "REVERSAL",
        updatedAt: settlement.updatedAt,
      };
      expect(result).toEqual({ won: true, refund: settled });
      expect(await repo.findById(refund.scope, refund.id)).toEqual(settled);
      expect(await pendingOf(repo, refund.id)).toEqual([{ refundId: refund.id, ...settlement.event }]);
    });

    it("when a refund is settled again, with the same or another outcome, then the first settlement stands and no second event is stored", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      const first = settlementFixture("FAILED", { resolutionNote: "acquirer says no" });
      await repo.settle(refund.id, first);
      const again = await repo.settle(refund.id, settlementFixture("FAILED", { resolutionNote: "again" }));
      const other = await repo.settle(refund.id, settlementFixture("SUCCEEDED", { resolutionNote: "done" }));
      for (const r of [again, other])
        expect(r).toMatchObject({
          won: false,
          refund: { status: "FAILED", resolutionNote: "acquirer says no" },
        });
      expect((await pendingOf(repo, refund.id)).map((e) => e.eventId)).toEqual([first.event.eventId]);
      expect(await repo.settle("re_missing", first)).toBeUndefined();
    });

    it("when ten callers settle one refund at once with different outcomes, then exactly one wins and only its event is stored", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      const settlements = Array.from({ length: 10 }, (_, i) =>
        settlementFixture(i % 2 === 0 ? "SUCCEEDED" : "FAILED", { resolutionNote: `caller ${i}` }),
      );
      const results = await Promise.all(settlements.map((s) => repo.settle(refund.id, s)));
      const winners = results.flatMap((r, i) => (r?.won ? [settlements[i]!] : []));
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      const stored = await repo.findByIdAnyScope(refund.id);
      expect(stored).toMatchObject({ status: winner.status, resolutionNote: winner.resolutionNote });
      for (const r of results)
        expect(r?.refund).toMatchObject({ status: winner.status, resolutionNote: winner.resolutionNote });
      expect((await pendingOf(repo, refund.id)).map((e) => e.eventId)).toEqual([winner.event.eventId]);
    });

    it("when a refund already final is settled (stored before settlements existed), then nothing changes and no event is stored", async () => {
      const repo = await open();
      const refund = refundFixture({ status: "SUCCEEDED", automated: true, acquirerErrorMessage: "" });
      await repo.insert(refund);
      expect(await repo.settle(refund.id, settlementFixture("FAILED"))).toEqual({ won: false, refund });
      expect(await pendingOf(repo, refund.id)).toEqual([]);
    });

    it("when an event is marked published (twice), then it no longer waits and other events still do", async () => {
      const repo = await open();
      const [a, b] = [refundFixture(), refundFixture()];
      for (const r of [a, b]) await repo.insert(r);
      const sa = settlementFixture("SUCCEEDED");
      const sb = settlementFixture("FAILED");
      await repo.settle(a.id, sa);
      await repo.settle(b.id, sb);
      await repo.markOutboxPublished(a.id, sa.event.eventId, new Date());
      await repo.markOutboxPublished(a.id, sa.event.eventId, new Date());
      await repo.markOutboxPublished(a.id, "evt_unknown", new Date());
      await repo.markOutboxPublished("re_missing", sa.event.eventId, new Date());
      expect(await pendingOf(repo, a.id)).toEqual([]);
      expect((await pendingOf(repo, b.id)).map((e) => e.eventId)).toEqual([sb.event.eventId]);
      // The payload survives the store byte for byte.
      expect(new TextDecoder().decode((await pendingOf(repo, b.id))[0]!.payload)).toBe(
        `payload of ${sb.event.eventId}`,
      );
    });

    it("when refunds wait for operations, then they are listed oldest first and settled ones leave the list", async () => {
      const repo = await open();
      const older = refundFixture({ createdAt: new Date(Date.UTC(2000, 0, 1)) });
      const newer = refundFixture({ createdAt: new Date(Date.UTC(2000, 0, 2)) });
      const done = refundFixture({ createdAt: new Date(Date.UTC(1999, 0, 1)), status: "SUCCEEDED" });
      for (const r of [newer, done, older]) await repo.insert(r);
      const first = await repo.listPendingManual(2);
      expect(first.map((r) => r.id)).toEqual([older.id, newer.id]);
      await repo.settle(older.id, settlementFixture("FAILED", { resolutionNote: "no" }));
      expect((await repo.listPendingManual(1)).map((r) => r.id)).toEqual([newer.id]);
      expect((await repo.findByIdAnyScope(older.id))?.resolutionNote).toBe("no");
    });
    it("when a session has refunds, then they are listed oldest first, only that session's in that scope, bounded", async () => {
      const repo = await open();
      const scope = { merchantId: newId("mer"), livemode: false };
      const sessionId = newId("ps");
      const at = (day: number) => new Date(Date.UTC(2026, 0, day));
      const second = refundFixture({ scope, sessionId, createdAt: at(2), status: "SUCCEEDED" });
      const first = refundFixture({ scope, sessionId, createdAt: at(1) });
      const third = refundFixture({ scope, sessionId, createdAt: at(3) });
      const otherSession = refundFixture({ scope, createdAt: at(1) });
      const otherMode = refundFixture({ scope: { ...scope, livemode: true }, sessionId, createdAt: at(1) });
      const otherMerchant = refundFixture({ sessionId, createdAt: at(1) });
      for (const r of [second, third, first, otherSession, otherMode, otherMerchant]) await repo.insert(r);

      expect(await repo.listBySession(scope, sessionId, 10)).toEqual([first, second, third]);
      expect((await repo.listBySession(scope, sessionId, 2)).map((r) => r.id)).toEqual([first.id, second.id]);
      expect(await repo.listBySession(scope, newId("ps"), 10)).toEqual([]);
    });
  });
}
