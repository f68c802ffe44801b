import { minorFromStored } from "@gateway/money";
import { GatewayError, isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { PaidSessionStore } from "../../app/ports.js";
import type { PaidSessionRecord, PaidSessionSource } from "../../domain/paid-session-record.js";
import type { AccountScope } from "../../domain/refund.js";
import { runMongo } from "./mongo-errors.js";

export const PAID_SESSIONS_COLLECTION = "paid_sessions";

interface PaidSessionDocument {
  sessionId: string;
  merchantId: string;
  livemode: boolean;
  amountMinor: bigint;
  currency: string;
  acquirerOrderId: string;
  merchantReference: string;
  orderNumber: string;
  webhookUrl: string;
  source: PaidSessionSource;
  recordedAt: Date;
}

function toDocument(r: PaidSessionRecord): PaidSessionDocument {
  return {
    sessionId: r.sessionId,
    merchantId: r.scope.merchantId,
    livemode: r.scope.livemode,
    amountMinor: r.amountMinor,
    currency: r.currency,
    acquirerOrderId: r.acquirerOrderId,
    merchantReference: r.merchantReference,
    orderNumber: r.orderNumber,
    webhookUrl: r.webhookUrl,
    source: r.source,
    recordedAt: r.recordedAt,
  };
}

function fromDocument(d: PaidSessionDocument): PaidSessionRecord {
  return {
    scope: { merchantId: d.merchantId, livemode: d.livemode },
    sessionId: d.sessionId,
    amountMinor: minorFromStored(d.amountMinor),
    currency: d.currency,
    acquirerOrderId: d.acquirerOrderId,
    merchantReference: d.merchantReference,
    orderNumber: d.orderNumber,
    webhookUrl: d.webhookUrl,
    source: d.source,
    recordedAt: d.recordedAt,
  };
}

/**
 * Paid sessions in MongoDB (or FerretDB): one insert-only document per session, unique on the
 * session id, so the event and a refund racing to record the same session leave one record.
 */
export class MongoPaidSessionStore implements PaidSessionStore {
  constructor(private readonly collection: Collection<PaidSessionDocument>) {}

  async record(record: PaidSessionRecord): Promise<{ stored: boolean; record: PaidSessionRecord }> {
    try {
      await runMongo(() => this.collection.insertOne(toDocument(record)));
      return { stored: true, record };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const earlier = await runMongo(() =>
      this.collection.findOne({ sessionId: record.sessionId }, { projection: { _id: 0 } }),
    );
    // Refused as a duplicate yet not readable: a lagging read; the caller retries.
    if (earlier === null) {
      throw new GatewayError(
        "SERVICE_UNAVAILABLE",
        "The session's payment record is not readable yet; retry.",
        { metadata: { session_id: record.sessionId } },
      );
    }
    return { stored: false, record: fromDocument(earlier) };
  }

  async find(scope: AccountScope, sessionId: string): Promise<PaidSessionRecord | undefined> {
    const d = await runMongo(() =>
      this.collection.findOne(
        { sessionId, merchantId: scope.merchantId, livemode: scope.livemode },
        { projection: { _id: 0 } },
      ),
    );
    return d === null ? undefined : fromDocument(d);
  }
}

export async function createMongoPaidSessionStore(db: Db): Promise<MongoPaidSessionStore> {
  const collection = db.collection<PaidSessionDocument>(PAID_SESSIONS_COLLECTION);
  await runMongo(() => collection.createIndex({ sessionId: 1 }, { name: "session_unique", unique: true }));
  return new MongoPaidSessionStore(collection);
}
