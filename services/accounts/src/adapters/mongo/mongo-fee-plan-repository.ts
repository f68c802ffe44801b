import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { FeePlanRepository } from "../../app/ports.js";
import type { FeePlan } from "../../domain/fee-plan.js";
import { type FeePlanDocument, feePlansCollection } from "./accounts-collections.js";
import { runMongo } from "./mongo-errors.js";

type StoredFeePlan = FeePlan & { updatedAt: Date };

export class MongoFeePlanRepository implements FeePlanRepository {
  private readonly plans: Collection<FeePlanDocument>;

  constructor(db: Db) {
    this.plans = feePlansCollection(db);
  }

  upsert(plan: StoredFeePlan): Promise<void> {
    return runMongo(async () => {
      const write = () =>
        this.plans.updateOne(
          { _id: plan.merchantId },
          { $set: { percent: plan.percent, fixedMinor: plan.fixedMinor, updatedAt: plan.updatedAt } },
          { upsert: true },
        );
      try {
        await write();
      } catch (err) {
        // Two first-time upserts raced and the other inserted: now it is a plain update.
        if (!isDuplicateKeyError(err)) throw err;
        await write();
      }
    });
  }

  find(merchantId: string): Promise<StoredFeePlan | undefined> {
    return runMongo(async () => {
      const doc = await this.plans.findOne({ _id: merchantId });
      return doc
        ? { merchantId: doc._id, percent: doc.percent, fixedMinor: doc.fixedMinor, updatedAt: doc.updatedAt }
        : undefined;
    });
  }
}
