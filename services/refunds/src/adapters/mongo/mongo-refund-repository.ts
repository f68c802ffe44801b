import {
  backfillOutboxFlag,
  DocumentWriteLock,
  dropRetiredIndexes,
  GatewayError,
  isDuplicateKeyError,
  OUTBOX_UNPUBLISHED_INDEX,
  outboxPendingFields,
  UNPUBLISHED_OUTBOX,
  type WriteLockDocument,
} from "@gateway/platform";
import type { Collection, Db, FindOptions } from "mongodb";
import type { AcquirerAnswer, RefundRepository, Settlement, SettleResult } from "../../app/ports.js";
import type { AccountScope, Refund } from "../../domain/refund.js";
import type { PendingRefundEvent } from "../../domain/refund-events.js";
import { runMongo } from "./mongo-errors.js";
import {
  eventFromDocument,
  fromDocument,
  type OutboxDocument,
  type RefundDocument,
  type SettlementDocument,
  settlementChanges,
  settlementToDocument,
  toDocument,
} from "./refund-document.js";

export const REFUNDS_COLLECTION = "refunds";
export const SETTLEMENTS_COLLECTION = "refund_settlements";

const INDEXES = [
  { key: { id: 1 }, options: { name: "id_unique", unique: true } },
  // A session's refunds in the order they were made (the dashboard's session detail).
  {
    key: { merchantId: 1, livemode: 1, sessionId: 1, createdAt: 1, id: 1 },
    options: { name: "by_session_created" },
  },
  // Operations' manual queue, oldest first.
  { key: { status: 1, createdAt: 1, id: 1 }, options: { name: "by_status_created" } },
  // The relay's look for unpublished events.
  OUTBOX_UNPUBLISHED_INDEX,
] as const;

/**
 * Indexes earlier versions created that no query needs now, dropped at start
 * (docs/decisions.md#an-index-no-query-reads-is-dropped). `by_session` is the first three keys of
 * `by_session_created`, which answers the same equality.
 */
const RETIRED_INDEXES = ["by_session"] as const;

/** Reads leave the outbox (event payloads) on the server: only the relay needs it. */
const REFUND_FIELDS: FindOptions = { projection: { _id: 0, outbox: 0 } };

/** Rounds of marking an event published before leaving it to the relay's next look. */
const MARK_ROUNDS = 10;

/** The write locks of refund documents (docs/decisions.md#compare-and-set-that-holds-on-ferretdb). */
export const REFUND_WRITE_LOCKS_COLLECTION = "refund_write_locks";

/**
 * Refunds in MongoDB (or FerretDB), one document each, with the refund's event outbox on the
 * document. The balance invariant does not rest on this store (the ledger's unique inserts hold
 * it), and neither does the one-outcome rule (the settlements' unique index holds it). Every
 * update runs under the refund's write lock, so replicas never erase each other's changes on
 * FerretDB, which writes a whole document back on update.
 */
export class MongoRefundRepository implements RefundRepository {
  constructor(
    private readonly collection: Collection<RefundDocument>,
    private readonly settlements: Collection<SettlementDocument>,
    private readonly writeLock: DocumentWriteLock,
  ) {}

  private write<T>(id: string, operation: () => Promise<T>): Promise<T> {
    return runMongo(() => this.writeLock.run(id, operation));
  }

  async insert(refund: Refund): Promise<boolean> {
    try {
      await runMongo(() => this.collection.insertOne(toDocument(refund)));
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async findById(scope: AccountScope, id: string): Promise<Refund | undefined> {
    const d = await runMongo(() =>
      this.collection.findOne({ id, merchantId: scope.merchantId, livemode: scope.livemode }, REFUND_FIELDS),
    );
    return d === null ? undefined : fromDocument(d);
  }

  async findByIdAnyScope(id: string): Promise<Refund | undefined> {
    const d = await runMongo(() => this.collection.findOne({ id }, REFUND_FIELDS));
    return d === null ? undefined : fromDocument(d);
  }

  async listBySession(scope: AccountScope, sessionId: string, limit: number): Promise<Refund[]> {
    const docs = await runMongo(() =>
      this.collection
        .find({ merchantId: scope.merchantId, livemode: scope.livemode, sessionId }, REFUND_FIELDS)
        .sort({ createdAt: 1, id: 1 })
        .limit(limit)
        .toArray(),
    );
    return docs.map(fromDocument);
  }

  async recordAcquirerAnswer(id: string, answer: AcquirerAnswer): Promise<Refund | undefined> {
    const { automated, acquirerErrorMessage, method, updatedAt } = answer;
    const result = await this.write(id, () =>
      this.collection.updateOne(
        { id, status: "PENDING_MANUAL" },
        { $set: { automated, acquirerErrorMessage, method, updatedAt } },
      ),
    );
    if (result.matchedCount === 0) return undefined;
    return this.findByIdAnyScope(id);
  }

  /**
   * The settlement is decided by inserting it (unique refundId): one insert wins, on MongoDB and
   * FerretDB alike. The winner's settlement is then written onto the refund, status and event
   * together in one update. A caller that loses (or finds the refund already settled) writes
   * the winner's settlement again, which finishes the job of a winner that stopped in between
   * and changes nothing otherwise (the update only applies to a refund still PENDING_MANUAL).
   */
  async settle(id: string, settlement: Settlement): Promise<SettleResult | undefined> {
    const before = await this.findByIdAnyScope(id);
    if (before === undefined) return undefined;
    let won = false;
    if (before.status === "PENDING_MANUAL") {
      try {
        await runMongo(() => this.settlements.insertOne(settlementToDocument(id, settlement, new Date())));
        won = true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    const decided = await runMongo(() =>
      this.settlements.findOne({ refundId: id }, { projection: { _id: 0 } }),
    );
    if (decided !== null) await this.apply(decided);
    const refund = await this.findByIdAnyScope(id);
    if (refund === undefined) return undefined;
    return { refund, won };
  }

  private async apply(s: SettlementDocument): Promise<void> {
    const entry: OutboxDocument = { ...s.event, publishedAt: null };
    await this.write(s.refundId, () =>
      this.collection.updateOne(
        { id: s.refundId, status: "PENDING_MANUAL" },
        {
          $set: { ...settlementChanges(s), outboxUnpublished: true },
          $push: { outbox: entry },
          $inc: { outboxPending: 1, outboxRevision: 1 },
        },
      ),
    );
  }

  async listPendingManual(limit: number): Promise<Refund[]> {
    const docs = await runMongo(() =>
      this.collection
        .find({ status: "PENDING_MANUAL" }, REFUND_FIELDS)
        .sort({ createdAt: 1, id: 1 })
        .limit(limit)
        .toArray(),
    );
    return docs.map(fromDocument);
  }

  async findPendingOutbox(limit: number): Promise<PendingRefundEvent[]> {
    const docs = await runMongo(() =>
      this.collection
        .find(UNPUBLISHED_OUTBOX, { projection: { _id: 0, id: 1, outbox: 1 } })
        .sort({ updatedAt: 1 })
        .limit(limit)
        .toArray(),
    );
    const pending: PendingRefundEvent[] = [];
    for (const doc of docs) {
      for (const entry of doc.outbox ?? []) {
        if (entry.publishedAt !== null) continue;
        if (pending.length >= limit) return pending;
        pending.push({ refundId: doc.id, ...eventFromDocument(entry) });
      }
    }
    return pending;
  }

  /**
   * Reads the outbox, marks the entry, and writes it back only if no one changed the outbox in
   * between (`outboxRevision`); the pending count is recomputed from the entries, never
   * incremented, so writing the same marks twice is harmless.
   */
  async markOutboxPublished(refundId: string, eventId: string, publishedAt: Date): Promise<void> {
    for (let round = 0; round < MARK_ROUNDS; round++) {
      const doc = await runMongo(() =>
        this.collection.findOne({ id: refundId }, { projection: { _id: 0, outbox: 1, outboxRevision: 1 } }),
      );
      const outbox = doc?.outbox ?? [];
      const entry = outbox.find((e) => e.eventId === eventId);
      if (!doc || !entry || entry.publishedAt !== null) return;
      const marked = outbox.map((e) => (e === entry ? { ...e, publishedAt } : e));
      const result = await this.write(refundId, () =>
        this.collection.updateOne(
          { id: refundId, outboxRevision: doc.outboxRevision ?? 0 },
          {
            $set: { outbox: marked, ...outboxPendingFields(marked) },
            $inc: { outboxRevision: 1 },
          },
        ),
      );
      if (result.matchedCount > 0) return;
    }
    throw new GatewayError(
      "SERVICE_UNAVAILABLE",
      "The refund event outbox is busy; the event will be marked on the next look.",
      {
        metadata: { refund_id: refundId, event_id: eventId },
      },
    );
  }
}

export async function createMongoRefundRepository(db: Db): Promise<MongoRefundRepository> {
  const collection = db.collection<RefundDocument>(REFUNDS_COLLECTION);
  for (const { key, options } of INDEXES) await runMongo(() => collection.createIndex(key, options));
  await runMongo(() => dropRetiredIndexes(collection, RETIRED_INDEXES));
  await runMongo(() => backfillOutboxFlag(collection));
  const settlements = db.collection<SettlementDocument>(SETTLEMENTS_COLLECTION);
  await runMongo(() => settlements.createIndex({ refundId: 1 }, { name: "refund_unique", unique: true }));
  const locks = db.collection<WriteLockDocument>(REFUND_WRITE_LOCKS_COLLECTION);
  return new MongoRefundRepository(collection, settlements, new DocumentWriteLock(locks));
}
