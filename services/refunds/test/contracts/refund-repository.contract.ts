import { newId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import type { RefundRepository } from "../../src/app/ports.js";
import type { Refund } from "../../src/domain/refund.js";

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
    createdAt: new Date(Date.UTC(2026, 0, 1)),
    updatedAt: new Date(Date.UTC(2026, 0, 1)),
    ...overrides,
  };
}

/** The one contract every RefundRepository adapter meets (in memory, MongoDB/FerretDB). */
export function refundRepositoryContract(name: string, open: () => Promise<RefundRepository>): void {
  describe(`RefundRepository (${name})`, () => {
    it("when a refund is stored, then it reads back exactly in its own scope only", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      expect(await repo.findById(refund.scope, refund.id)).toEqual(refund);
      expect(await repo.findById({ ...refund.scope, livemode: true }, refund.id)).toBeUndefined();
      expect(await repo.findById({ merchantId: newId("mer"), livemode: false }, refund.id)).toBeUndefined();
      expect(await repo.findByIdAnyScope(refund.id)).toEqual(refund);
    });

    it("when the id repeats, then the insert fails", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      await expect(repo.insert(refund)).rejects.toThrow();
    });

    it("when the status is as expected, then the changes apply; otherwise nothing changes", async () => {
      const repo = await open();
      const refund = refundFixture();
      await repo.insert(refund);
      const at = new Date(Date.UTC(2026, 0, 2));
      const done = await repo.updateIfStatus(refund.id, "PENDING_MANUAL", { status: "SUCCEEDED", automated: true, acquirerErrorMessage: "", method: "REVERSAL", updatedAt: at });
      expect(done).toEqual({ ...refund, status: "SUCCEEDED", automated: true, acquirerErrorMessage: "", method: "REVERSAL", updatedAt: at });
      expect(await repo.updateIfStatus(refund.id, "PENDING_MANUAL", { status: "FAILED", updatedAt: at })).toBeUndefined();
      expect(await repo.updateIfStatus("re_missing", "PENDING_MANUAL", { status: "FAILED", updatedAt: at })).toBeUndefined();
      expect((await repo.findByIdAnyScope(refund.id))?.status).toBe("SUCCEEDED");
    });

    it("when refunds wait for operations, then they are listed oldest first and resolved ones leave the list", async () => {
      const repo = await open();
      const older = refundFixture({ createdAt: new Date(Date.UTC(2000, 0, 1)) });
      const newer = refundFixture({ createdAt: new Date(Date.UTC(2000, 0, 2)) });
      const done = refundFixture({ createdAt: new Date(Date.UTC(1999, 0, 1)), status: "SUCCEEDED" });
      for (const r of [newer, done, older]) await repo.insert(r);
      const first = await repo.listPendingManual(2);
      expect(first.map((r) => r.id)).toEqual([older.id, newer.id]);
      await repo.updateIfStatus(older.id, "PENDING_MANUAL", { status: "FAILED", resolutionNote: "no", updatedAt: new Date() });
      expect((await repo.listPendingManual(1)).map((r) => r.id)).toEqual([newer.id]);
      expect((await repo.findByIdAnyScope(older.id))?.resolutionNote).toBe("no");
    });
  });
}
