import { newId } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import type { BusinessVerificationRepository } from "../../src/app/ports.js";
import type { BusinessVerification } from "../../src/domain/business-verification.js";

function aVerification(overrides: Partial<BusinessVerification> = {}): BusinessVerification {
  return {
    merchantId: newId("mer"),
    status: "pending",
    details: {
      legalName: "Librairie Al Kitab SARL",
      registrationNumber: "B0123456",
      country: "TN",
      address: "12 rue de Marseille\nTunis",
    },
    submittedAt: new Date("2026-03-01T10:00:00.000Z"),
    ...overrides,
  };
}

export function describeBusinessVerificationRepositoryContract(
  name: string,
  factory: () => Promise<BusinessVerificationRepository>,
): void {
  describe(`BusinessVerificationRepository contract: ${name}`, () => {
    let store: BusinessVerificationRepository;
    beforeEach(async () => {
      store = await factory();
    });

    it("when a verification is saved, then it is found with every field, and a new one replaces it", async () => {
      const first = aVerification({
        details: { ...aVerification().details, website: "https://kitab.example" },
      });
      await store.save(first);
      expect(await store.find(first.merchantId)).toEqual(first);
      const again = {
        ...first,
        status: "pending" as const,
        submittedAt: new Date("2026-03-02T10:00:00.000Z"),
      };
      await store.save(again);
      expect(await store.find(first.merchantId)).toEqual(again);
      expect(await store.find(newId("mer"))).toBeUndefined();
    });

    it("lists pending verifications oldest first, without decided ones", async () => {
      const older = aVerification({ submittedAt: new Date("2026-03-01T09:00:00.000Z") });
      const newer = aVerification({ submittedAt: new Date("2026-03-01T11:00:00.000Z") });
      const decided = aVerification({ status: "approved", decidedAt: new Date("2026-03-01T12:00:00.000Z") });
      for (const v of [newer, decided, older]) await store.save(v);
      const ours = new Set([older.merchantId, newer.merchantId, decided.merchantId]);
      const listed = (await store.listPending(200)).filter((v) => ours.has(v.merchantId));
      expect(listed.map((v) => v.merchantId)).toEqual([older.merchantId, newer.merchantId]);
    });

    it("decides only the pending submission the operator read; a rejection keeps its reason, an approval none", async () => {
      const v = aVerification();
      await store.save(v);
      const decidedAt = new Date("2026-03-01T12:00:00.000Z");
      expect(
        await store.decide(v.merchantId, new Date("2026-02-01T00:00:00.000Z"), {
          status: "approved",
          decidedAt,
        }),
      ).toBeUndefined();
      const rejected = await store.decide(v.merchantId, v.submittedAt, {
        status: "rejected",
        decidedAt,
        reason: "Unreadable",
      });
      expect(rejected).toEqual({ ...v, status: "rejected", decidedAt, reason: "Unreadable" });
      expect(
        await store.decide(v.merchantId, v.submittedAt, { status: "approved", decidedAt }),
      ).toBeUndefined();
      const resubmitted = { ...v, submittedAt: new Date("2026-03-03T10:00:00.000Z") };
      await store.save(resubmitted);
      const approved = await store.decide(v.merchantId, resubmitted.submittedAt, {
        status: "approved",
        decidedAt,
      });
      expect(approved).toEqual({ ...resubmitted, status: "approved", decidedAt });
      expect(await store.find(v.merchantId)).toEqual(approved);
      expect(
        await store.decide(newId("mer"), v.submittedAt, { status: "approved", decidedAt }),
      ).toBeUndefined();
    });
  });
}
