import { Long, type Collection, type Db } from "mongodb";
import type { RefundChanges, RefundRepository } from "../../app/ports.js";
import type { AccountScope, Refund, RefundStatus } from "../../domain/refund.js";
import { runMongo } from "./mongo-errors.js";

export const REFUNDS_COLLECTION = "refunds";

/** A refund as stored: amounts as Int64, the scope flattened for the indexes. */
interface RefundDocument {
  id: string;
  sessionId: string;
  merchantId: string;
  livemode: boolean;
  type: Refund["type"];
  amountMinor: Long;
  currency: string;
  reason: string;
  metadataJson: string;
  status: RefundStatus;
  automated: boolean;
  acquirerErrorMessage: string;
  externalRefundId: string;
  method: Refund["method"];
  resolutionNote: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const INDEXES = [
  { key: { id: 1 }, options: { name: "id_unique", unique: true } },
  { key: { merchantId: 1, livemode: 1, sessionId: 1 }, options: { name: "by_session" } },
  // Operations' manual queue, oldest first.
  { key: { status: 1, createdAt: 1, id: 1 }, options: { name: "by_status_created" } },
] as const;

function toDocument(r: Refund): RefundDocument {
  return {
    id: r.id,
    sessionId: r.sessionId,
    merchantId: r.scope.merchantId,
    livemode: r.scope.livemode,
    type: r.type,
    amountMinor: Long.fromBigInt(r.amountMinor),
    currency: r.currency,
    reason: r.reason,
    metadataJson: r.metadataJson,
    status: r.status,
    automated: r.automated,
    acquirerErrorMessage: r.acquirerErrorMessage,
    externalRefundId: r.externalRefundId,
    method: r.method,
    resolutionNote: r.resolutionNote ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function fromDocument(d: RefundDocument): Refund {
  const amount = d.amountMinor as Long | number;
  return {
    id: d.id,
    sessionId: d.sessionId,
    scope: { merchantId: d.merchantId, livemode: d.livemode },
    type: d.type,
    amountMinor: typeof amount === "number" ? BigInt(amount) : amount.toBigInt(),
    currency: d.currency,
    reason: d.reason,
    metadataJson: d.metadataJson,
    status: d.status,
    automated: d.automated,
    acquirerErrorMessage: d.acquirerErrorMessage,
    externalRefundId: d.externalRefundId,
    method: d.method,
    ...(d.resolutionNote !== null ? { resolutionNote: d.resolutionNote } : {}),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/**
 * Refunds in MongoDB (or FerretDB), one document each. Status changes are single conditional
 * updates; the balance invariant does not rest on them (the ledger's unique inserts hold it).
 */
export class MongoRefundRepository implements RefundRepository {
  constructor(private readonly collection: Collection<RefundDocument>) {}

  async insert(refund: Refund): Promise<void> {
    await runMongo(() => this.collection.insertOne(toDocument(refund)));
  }

  async findById(scope: AccountScope, id: string): Promise<Refund | undefined> {
    const d = await runMongo(() => this.collection.findOne({ id, merchantId: scope.merchantId, livemode: scope.livemode }, { projection: { _id: 0 } }));
    return d === null ? undefined : fromDocument(d);
  }

  async findByIdAnyScope(id: string): Promise<Refund | undefined> {
    const d = await runMongo(() => this.collection.findOne({ id }, { projection: { _id: 0 } }));
    return d === null ? undefined : fromDocument(d);
  }

  async updateIfStatus(id: string, expectedStatus: RefundStatus, changes: RefundChanges): Promise<Refund | undefined> {
    const set: Partial<RefundDocument> = {};
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (set as Record<string, unknown>)[key] = value;
    const result = await runMongo(() => this.collection.updateOne({ id, status: expectedStatus }, { $set: set }));
    if (result.matchedCount === 0) return undefined;
    return this.findByIdAnyScope(id);
  }

  async listPendingManual(limit: number): Promise<Refund[]> {
    const docs = await runMongo(() =>
      this.collection.find({ status: "PENDING_MANUAL" }, { projection: { _id: 0 } }).sort({ createdAt: 1, id: 1 }).limit(limit).toArray(),
    );
    return docs.map(fromDocument);
  }
}

export async function createMongoRefundRepository(db: Db): Promise<MongoRefundRepository> {
  const collection = db.collection<RefundDocument>(REFUNDS_COLLECTION);
  for (const { key, options } of INDEXES) await runMongo(() => collection.createIndex(key, options));
  return new MongoRefundRepository(collection);
}
