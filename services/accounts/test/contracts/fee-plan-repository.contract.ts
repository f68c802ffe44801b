import { newId } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import type { FeePlanRepository } from "../../src/app/ports.js";
import type { FeePlan } from "../../src/domain/fee-plan.js";

function aPlan(overrides: Partial<FeePlan> = {}): FeePlan & { updatedAt: Date } {
  return {
    merchantId: newId("mer"),
    percent: "2.5",
    fixedMinor: 250n,
    updatedAt: new Date("2026-01-01T00:00:00.000Z"),
    ...overrides,
  };
}

export function describeFeePlanRepositoryContract(
  name: string,
  factory: () => Promise<FeePlanRepository>,
): void {
  describe(`FeePlanRepository contract: ${name}`, () => {
    let plans: FeePlanRepository;
    beforeEach(async () => {
      plans = await factory();
    });

    it("when no plan was set, then nothing is found", async () => {
      expect(await plans.find(newId("mer"))).toBeUndefined();
    });

    it("when a plan is set, then it is found with every field intact, the fixed part as an exact bigint", async () => {
      const plan = aPlan({ percent: "1.2345", fixedMinor: 999_999_999n });
      await plans.upsert(plan);
      const found = await plans.find(plan.merchantId);
      expect(found).toEqual(plan);
      expect(typeof found?.fixedMinor).toBe("bigint");
    });

    it("when a plan is set again, then the new values replace the old ones", async () => {
      const first = aPlan();
      await plans.upsert(first);
      const second = {
        ...first,
        percent: "0",
        fixedMinor: 0n,
        updatedAt: new Date("2026-03-01T00:00:00.000Z"),
      };
      await plans.upsert(second);
      expect(await plans.find(first.merchantId)).toEqual(second);
    });

    it("when merchants differ, then each keeps its own plan", async () => {
      const a = aPlan({ percent: "1" });
      const b = aPlan({ percent: "3.75", fixedMinor: 100n });
      await plans.upsert(a);
      await plans.upsert(b);
      expect(await plans.find(a.merchantId)).toEqual(a);
      expect(await plans.find(b.merchantId)).toEqual(b);
    });

    it("when the first plan of a merchant is set concurrently, then every write succeeds and one of them remains", async () => {
      const merchantId = newId("mer");
      const writes = ["1", "2", "3", "4", "5"].map((percent) => aPlan({ merchantId, percent }));
      await Promise.all(writes.map((plan) => plans.upsert(plan)));
      expect(writes.map((w) => w.percent)).toContain((await plans.find(merchantId))?.percent);
    });
  });
}
