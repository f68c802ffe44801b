import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, CreateIndexesOptions, Db, Filter, IndexSpecification } from "mongodb";
import type { InsertResult, ListPosition, SessionListFilter, SessionPage, SessionRepository, UpdateResult } from "../../app/ports.js";
import type { AccountScope, Session, SessionChanges } from "../../domain/session.js";
import { runMongo } from "./mongo-errors.js";
import { changesToSet, fromDocument, toDocument, type SessionDocument } from "./session-document.js";

export const SESSIONS_COLLECTION = "sessions";

/**
 * Declared next to the queries that need them; created one by one at every start. Creating an
 * existing index with the same spec is a no-op (a batched createIndexes that repeats existing
 * indexes makes FerretDB 1.24 drop the connection, so no batch).
 */
const INDEXES: ReadonlyArray<{ key: IndexSpecification; options: CreateIndexesOptions & { name: string } }> = [
  { key: { id: 1 }, options: { name: "id_unique", unique: true } },
  // Idempotency: concurrent creates of one reference converge on the single winner.
  { key: { merchantId: 1, livemode: 1, merchantReference: 1 }, options: { name: "merchant_reference_unique", unique: true } },
  // Sent to the acquirer as our order number: unique across every merchant and mode.
  { key: { orderNumber: 1 }, options: { name: "order_number_unique", unique: true } },
  // Finds a session from its hosted-page link. Unique on MongoDB (multikey; every session has
  // at least one link, links are never removed). FerretDB 1.24 does not enforce uniqueness on
  // array paths, so there the 190 random bits of a token are the guarantee.
  { key: { "checkoutLinks.token": 1 }, options: { name: "checkout_token_unique", unique: true } },
  { key: { merchantId: 1, livemode: 1, createdAt: -1, id: -1 }, options: { name: "list_newest_first" } },
];

async function ensureIndexes(collection: Collection<SessionDocument>): Promise<void> {
  for (const { key, options } of INDEXES) await runMongo(() => collection.createIndex(key, options));
}

const scopeFilter = (scope: AccountScope): Filter<SessionDocument> => ({ merchantId: scope.merchantId, livemode: scope.livemode });

/**
 * Sessions in MongoDB (or FerretDB): one document per session, every state change a single
 * atomic conditional update. Driver errors are translated here and never reach use cases.
 */
export class MongoSessionRepository implements SessionRepository {
  constructor(private readonly collection: Collection<SessionDocument>) {}

  async insert(session: Session): Promise<InsertResult> {
    try {
      await runMongo(() => this.collection.insertOne(toDocument(session)));
      return { inserted: true };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // Which index refused is read from the data, not from the server's message (whose
      // shape differs between MongoDB and FerretDB): the reference either has a winner or not.
      const existing = await this.findByReference(session.scope, session.merchantReference);
      return existing ? { inserted: false, duplicate: "merchant_reference", existing } : { inserted: false, duplicate: "generated_value" };
    }
  }

  async findById(scope: AccountScope, id: string): Promise<Session | undefined> {
    const doc = await runMongo(() => this.collection.findOne({ ...scopeFilter(scope), id }));
    return doc ? fromDocument(doc) : undefined;
  }

  async findByReference(scope: AccountScope, merchantReference: string): Promise<Session | undefined> {
    const doc = await runMongo(() => this.collection.findOne({ ...scopeFilter(scope), merchantReference }));
    return doc ? fromDocument(doc) : undefined;
  }

  async list(scope: AccountScope, filter: SessionListFilter, page: { limit: number; after?: ListPosition }): Promise<SessionPage> {
    const query: Filter<SessionDocument> = { ...scopeFilter(scope) };
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.merchantReference !== undefined) query.merchantReference = filter.merchantReference;
    if (filter.createdGte !== undefined || filter.createdLte !== undefined) {
      query.createdAt = {
        ...(filter.createdGte !== undefined ? { $gte: filter.createdGte } : {}),
        ...(filter.createdLte !== undefined ? { $lte: filter.createdLte } : {}),
      };
    }
    if (page.after !== undefined) {
      query.$or = [{ createdAt: { $lt: page.after.createdAt } }, { createdAt: page.after.createdAt, id: { $lt: page.after.id } }];
    }
    const docs = await runMongo(() =>
      this.collection
        .find(query)
        .sort({ createdAt: -1, id: -1 })
        .limit(page.limit + 1)
        .toArray(),
    );
    return { sessions: docs.slice(0, page.limit).map(fromDocument), hasMore: docs.length > page.limit };
  }

  async updateIf(scope: AccountScope, id: string, expectedVersion: number, changes: SessionChanges): Promise<UpdateResult> {
    const doc = await runMongo(() =>
      this.collection.findOneAndUpdate(
        { ...scopeFilter(scope), id, version: expectedVersion },
        { $set: changesToSet(changes), $inc: { version: 1 } },
        { returnDocument: "after" },
      ),
    );
    if (doc) return { updated: true, session: fromDocument(doc) };
    return { updated: false, current: await this.findById(scope, id) };
  }
}

/** The Mongo session store of `db`, with its indexes in place. */
export async function createMongoSessionRepository(db: Db): Promise<SessionRepository> {
  // useBigInt64: Int64 amounts come back as bigint, exactly, never as a JS number.
  const collection = db.collection<SessionDocument>(SESSIONS_COLLECTION, { useBigInt64: true });
  await ensureIndexes(collection);
  return new MongoSessionRepository(collection);
}
