import type { Db } from "mongodb";
import {
  DELIVERIES_COLLECTION,
  type DeliveryDocument,
} from "../../services/webhooks/src/adapters/mongo/mongo-delivery-repository.js";
import type { AccountScope } from "../../services/webhooks/src/domain/account-scope.js";

const BATCH = 1_000;

/**
 * Stores `count` delivered (SUCCEEDED) attempts of past events, as a busy account accumulates
 * them, straight into the deliveries collection in batches (the repository inserts one by one).
 * Half belong to `scope`, half to other accounts.
 */
export async function storeOldDeliveries(db: Db, scope: AccountScope, count: number): Promise<void> {
  const collection = db.collection<DeliveryDocument>(DELIVERIES_COLLECTION);
  const day = Date.UTC(2026, 0, 1);
  for (let start = 0; start < count; start += BATCH) {
    const docs: DeliveryDocument[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const at = new Date(day + i * 1000);
      docs.push({
        id: `whd_old_${i}`,
        merchantId: i % 2 === 0 ? scope.merchantId : `mer_old_${i % 97}`,
        livemode: scope.livemode,
        sessionId: `ps_old_${i}`,
        event: "session.succeeded",
        eventId: `evt_old_${i}`,
        url: "https://merchant.example/hooks",
        attemptNumber: 1,
        chainAttempt: 1,
        trigger: "initial",
        status: "SUCCEEDED",
        httpStatusCode: 200,
        responseTimeMs: 12,
        errorMessage: null,
        nextRetryAt: null,
        createdAt: at,
        dueAt: at,
        completedAt: at,
        requestHeaders: null,
        responseExcerpt: "ok",
        claimToken: null,
        claimedUntil: null,
      });
    }
    await collection.insertMany(docs, { ordered: false });
  }
}
