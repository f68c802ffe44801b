import { copyRecord } from "@gateway/platform";
import type { FeePlanRepository } from "../../app/ports.js";
import type { FeePlan } from "../../domain/fee-plan.js";

type StoredFeePlan = FeePlan & { updatedAt: Date };

/** Fee plans keyed by merchant id. */
export class InMemoryFeePlanRepository implements FeePlanRepository {
  private readonly plans = new Map<string, StoredFeePlan>();

  async upsert(plan: StoredFeePlan): Promise<void> {
    this.plans.set(plan.merchantId, copyRecord(plan));
  }

  async find(merchantId: string): Promise<StoredFeePlan | undefined> {
    const plan = this.plans.get(merchantId);
    return plan && copyRecord(plan);
  }
}
