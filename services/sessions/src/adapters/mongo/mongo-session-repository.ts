import {
  type BatchedInsertOutcome,
  backfillOutboxFlag,
  batchedInserts,
  DocumentWriteLock,
  dropRetiredIndexes,
  GatewayError,
  NEWEST_FIRST_SORT,
  newestFirstWindowFilter,
  OUTBOX_UNPUBLISHED_INDEX,
  outboxPendingFields,
  pageOfWindow,
  UNPUBLISHED_OUTBOX,
  type WriteLockDocument,
} from "@gateway/platform";
import type {
  Collection,
  CreateIndexesOptions,
  Db,
  Filter,
  FindOptions,
  IndexSpecification,
  UpdateFilter,
} from "mongodb";
import { keepAfterPublish } from "../../app/outbox-retention.js";
import type {
  InsertResult,
  ListPosition,
  OutboxEvent,
  PendingOutboxEvent,
  SessionListFilter,
  SessionPage,
  SessionRepository,
  UpdateResult,
} from "../../app/ports.js";
import type { AccountScope, Session, SessionChanges } from "../../domain/session.js";
import { sweepDueAt } from "../../domain/sweep-schedule.js";
import { runMongo } from "./mongo-errors.js";
import {
  minuteOf,
  NEXT_DUE_INDEXES,
  nextDueFields,
  RETIRED_SCHEDULE_INDEXES,
  storesNextDueOf,
} from "./next-due.js";
import {
  changesToSet,
  fromDocument,
  type OutboxDocument,
  outboxFromDocument,
  outboxToDocument,
  type SessionDocument,
  toDocument,
  tokensOf,
} from "./session-document.js";

export const SESSIONS_COLLECTION = "sessions";

/**
 * Declared next to the queries that need them; created one by one at every start. Creating an
 * existing index with the same spec is a no-op (a batched createIndexes that repeats existing
 * indexes makes FerretDB 1.24 drop the connection, so no batch).
 */
const INDEXES: ReadonlyArray<{ key: IndexSpecification; options: CreateIndexesOptions & { name: string } }> =
  [
    { key: { id: 1 }, options: { name: "id_unique", unique: true } },
    // Idempotency: concurrent creates of one reference converge on the single winner.
    {
      key: { merchantId: 1, livemode: 1, merchantReference: 1 },
      options: { name: "merchant_reference_unique", unique: true },
    },
    // Sent to the acquirer as our order number: unique across every merchant and mode.
    { key: { orderNumber: 1 }, options: { name: "order_number_unique", unique: true } },
    // Finds a session from its hosted-page link. Unique on MongoDB (multikey; every session has
    // at least one link, links are never removed). FerretDB 1.24 does not enforce uniqueness on
    // array paths, so there the 190 random bits of a token are the guarantee.
    { key: { "checkoutLinks.token": 1 }, options: { name: "checkout_token_unique", unique: true } },
    { key: { merchantId: 1, livemode: 1, createdAt: -1, id: -1 }, options: { name: "list_newest_first" } },
    // Lookups by link token and by acquirer order id (multikey; see SessionDocument.checkoutTokens).
    { key: { checkoutTokens: 1 }, options: { name: "checkout_tokens" } },
    // The acquirer's return and callback name the order id only.
    { key: { acquirerOrderIds: 1 }, options: { name: "acquirer_order_ids" } },
    // The relay's look for unpublished events.
    OUTBOX_UNPUBLISHED_INDEX,
    // The sweeper's looks for due work (findDue).
    ...NEXT_DUE_INDEXES,
  ];

/**
 * Indexes earlier versions created that no query reads now, dropped at start
 * (docs/decisions.md#an-index-no-query-reads-is-dropped). `acquirer_order_id` indexed the path
 * into the attempts; lookups by order id read the top-level copy (`acquirer_order_ids`). The
 * schedule's six went with the next due time.
 */
const RETIRED_INDEXES = ["acquirer_order_id", ...RETIRED_SCHEDULE_INDEXES] as const;

/**
 * Beyond this many minutes, a look at work "due since" goes by dates alone: the sweeper's
 * catch-up look spans an hour (61 minutes with both ends).
 */
const MAX_DUE_MINUTES = 61;

/** Session reads leave the outbox (event payloads) on the server: only the relay needs it. */
const WITHOUT_OUTBOX: FindOptions = { projection: { outbox: 0 } };

/** Documents given their next due time per read of the start's backfill. */
const BACKFILL_BATCH = 500;

/** Rounds of marking an event published before giving up until the relay's next look. */
const MARK_ROUNDS = 10;

/** The write locks of session documents (docs/decisions.md#compare-and-set-that-holds-on-ferretdb). */
export const SESSION_WRITE_LOCKS_COLLECTION = "session_write_locks";

async function ensureIndexes(collection: Collection<SessionDocument>): Promise<void> {
  for (const { key, options } of INDEXES) await runMongo(() => collection.createIndex(key, options));
  await runMongo(() => dropRetiredIndexes(collection, RETIRED_INDEXES));
  await backfillLookupArrays(collection);
  await runMongo(() => backfillOutboxFlag(collection));
}

/**
 * Documents stored before the lookup arrays existed get them once (later starts find nothing to
 * do); without them their links would not be found. Runs at start only, so its unbounded scan is
 * not per-request work.
 */
async function backfillLookupArrays(collection: Collection<SessionDocument>): Promise<void> {
  const legacy = collection.find({ checkoutTokens: { $exists: false } } as Filter<SessionDocument>, {
    projection: { id: 1, checkoutLinks: 1, attempts: 1 },
  });
  for await (const doc of legacy) {
    await runMongo(() =>
      collection.updateOne(
        { id: doc.id },
        {
          $set: {
            checkoutTokens: tokensOf(doc.checkoutLinks),
            acquirerOrderIds: doc.attempts.flatMap((a) => (a.acquirerOrderId ? [a.acquirerOrderId] : [])),
          },
        },
      ),
    );
  }
}

/** Documents an older version wrote: they have no next due time yet. */
const WITHOUT_NEXT_DUE = { nextDueScheduled: { $exists: false } } as Filter<SessionDocument>;

const scopeFilter = (scope: AccountScope): Filter<SessionDocument> => ({
  merchantId: scope.merchantId,
  livemode: scope.livemode,
});

/**
 * Sessions in MongoDB (or FerretDB): one document per session, every state change a single
 * conditional update made under the document's write lock, so a compare-and-set holds across
 * replicas on FerretDB too. Driver errors are translated here and never reach use cases.
 */
export class MongoSessionRepository implements SessionRepository {
  /** Creates arriving together are stored with one command (docs/decisions.md#concurrent-inserts-share-one-command). */
  private readonly insertOne: (doc: SessionDocument) => Promise<BatchedInsertOutcome>;

  constructor(
    private readonly collection: Collection<SessionDocument>,
    private readonly writeLock: DocumentWriteLock,
  ) {
    this.insertOne = batchedInserts(collection, runMongo);
  }

  /** Runs a conditional write to the session `id` after this process's other writes to it. */
  private write<T>(id: string, operation: () => Promise<T>): Promise<T> {
    return runMongo(() => this.writeLock.run(id, operation));
  }

  async insert(session: Session): Promise<InsertResult> {
    if ((await this.insertOne(toDocument(session))) === "inserted") return { inserted: true };
    // Which index refused is read from the data, not from the server's message (whose shape
    // differs between MongoDB and FerretDB): the reference either has a winner or not.
    const existing = await this.findByReference(session.scope, session.merchantReference);
    return existing
      ? { inserted: false, duplicate: "merchant_reference", existing }
      : { inserted: false, duplicate: "generated_value" };
  }

  async findById(scope: AccountScope, id: string): Promise<Session | undefined> {
    return this.findOne({ ...scopeFilter(scope), id });
  }

  async findByReference(scope: AccountScope, merchantReference: string): Promise<Session | undefined> {
    return this.findOne({ ...scopeFilter(scope), merchantReference });
  }

  async findByCheckoutToken(token: string): Promise<Session | undefined> {
    return this.findOne({ checkoutTokens: token });
  }

  async findByAcquirerOrderId(acquirerOrderId: string): Promise<Session | undefined> {
    return this.findOne({ acquirerOrderIds: acquirerOrderId });
  }

  private async findOne(filter: Filter<SessionDocument>): Promise<Session | undefined> {
    const doc = await runMongo(() => this.collection.findOne(filter, WITHOUT_OUTBOX));
    return doc ? fromDocument(doc) : undefined;
  }

  async list(
    scope: AccountScope,
    filter: SessionListFilter,
    page: { limit: number; after?: ListPosition },
  ): Promise<SessionPage> {
    const query: Filter<SessionDocument> = { ...scopeFilter(scope) };
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.merchantReference !== undefined) query.merchantReference = filter.merchantReference;
    // Equalities on top-level fields beside the scope: the order number and reference hit their
    // unique indexes, the rest ride list_newest_first, and the limit bounds every read.
    if (filter.orderNumber !== undefined) query.orderNumber = filter.orderNumber;
    if (filter.amountMinor !== undefined) query.amountMinor = filter.amountMinor;
    Object.assign(query, newestFirstWindowFilter(filter, page));
    const docs = await runMongo(() =>
      this.collection
        .find(query, WITHOUT_OUTBOX)
        .sort(NEWEST_FIRST_SORT)
        .limit(page.limit + 1)
        .toArray(),
    );
    const { items, hasMore } = pageOfWindow(docs, page);
    return { sessions: items.map(fromDocument), hasMore };
  }

  async updateIf(
    current: Session,
    changes: SessionChanges,
    events: readonly OutboxEvent[] = [],
  ): Promise<UpdateResult> {
    const { scope, id, version: expectedVersion } = current;
    const set = {
      ...changesToSet(current, changes),
      ...(events.length > 0 ? { outboxUnpublished: true } : {}),
    };
    const update: UpdateFilter<SessionDocument> = {
      ...(Object.keys(set).length > 0 ? { $set: set } : {}),
      $inc:
        events.length > 0 ? { version: 1, outboxPending: events.length, outboxRevision: 1 } : { version: 1 },
      ...(events.length > 0 ? { $push: { outbox: { $each: events.map(outboxToDocument) } } } : {}),
    };
    const doc = await this.write(id, () =>
      // No projection here: FerretDB 1.24 does not support one on findAndModify.
      this.collection.findOneAndUpdate({ ...scopeFilter(scope), id, version: expectedVersion }, update, {
        returnDocument: "after",
      }),
    );
    if (doc) return { updated: true, session: fromDocument(doc) };
    return { updated: false, current: await this.findById(scope, id) };
  }

  async findDue(now: Date, limit: number, dueSince?: Date): Promise<Session[]> {
    const window = dueWindow(now, dueSince);
    const found = new Map<string, SessionDocument>();
    // The look by dates also gives the documents an older replica wrote (during a rolling
    // update) their next due time, a batch at a time.
    if (!dueSince) for (const doc of await this.withoutNextDue(limit)) found.set(doc.id, doc);
    // Oldest minute first, one minute at a time, until the batch is full: an hour's catch-up
    // is a series of small indexed reads, not sixty minutes' worth of queries at once.
    for (const minute of window.minutes) {
      if (found.size >= limit) break;
      const filter: Filter<SessionDocument> = minute
        ? { nextDueMinute: minute, nextDueAt: window.range }
        : { nextDueScheduled: true, nextDueAt: window.range };
      const docs = await runMongo(() =>
        this.collection.find(filter, WITHOUT_OUTBOX).sort({ nextDueAt: 1 }).limit(limit).toArray(),
      );
      for (const doc of docs) if (!found.has(doc.id)) found.set(doc.id, doc);
    }
    const due: Session[] = [];
    for (const doc of found.values()) {
      const session = fromDocument(doc);
      // A stored time an older replica's write left behind is put right as it is read.
      if (!storesNextDueOf(doc, session)) await this.storeNextDue(doc, session);
      if ((sweepDueAt(session) ?? Infinity) <= now.getTime()) due.push(session);
    }
    return due.sort((a, b) => sweepDueAt(a)! - sweepDueAt(b)!).slice(0, limit);
  }

  /**
   * Gives every document without a next due time one (at start: an older version's documents).
   * Stops early when a whole batch lost its compare-and-set, to be caught by a later look.
   */
  async backfillNextDue(batch: number): Promise<void> {
    for (;;) {
      const docs = await this.withoutNextDue(batch);
      let stored = 0;
      for (const doc of docs) if (await this.storeNextDue(doc, fromDocument(doc))) stored++;
      if (docs.length < batch || stored === 0) return;
    }
  }

  private withoutNextDue(limit: number): Promise<SessionDocument[]> {
    return runMongo(() => this.collection.find(WITHOUT_NEXT_DUE, WITHOUT_OUTBOX).limit(limit).toArray());
  }

  /** Derived fields only: the version stays, so no state change loses its compare-and-set. */
  private async storeNextDue(doc: SessionDocument, session: Session): Promise<boolean> {
    const result = await this.write(doc.id, () =>
      this.collection.updateOne({ id: doc.id, version: doc.version }, { $set: nextDueFields(session) }),
    );
    return result.matchedCount > 0;
  }

  async findPendingOutbox(limit: number): Promise<PendingOutboxEvent[]> {
    const docs = await runMongo(() =>
      this.collection
        .find(UNPUBLISHED_OUTBOX, { projection: { id: 1, outbox: 1 } })
        .sort({ updatedAt: 1 })
        .limit(limit)
        .toArray(),
    );
    const pending: PendingOutboxEvent[] = [];
    for (const doc of docs) {
      const entries = (doc.outbox ?? [])
        .filter((e) => e.publishedAt === null)
        .sort((a, b) => Number(a.sequence) - Number(b.sequence));
      for (const entry of entries) {
        if (pending.length >= limit) return pending;
        pending.push({ sessionId: doc.id, ...outboxFromDocument(entry) });
      }
    }
    return pending;
  }

  /**
   * Read the outbox, mark the entry, drop old published entries, and write it back only if no
   * one changed the outbox in between (`outboxRevision`). The session's `version` is left alone,
   * so marking never makes a state change lose its compare-and-set.
   */
  async markOutboxPublished(sessionId: string, eventId: string, publishedAt: Date): Promise<void> {
    for (let round = 0; round < MARK_ROUNDS; round++) {
      const doc = await runMongo(() =>
        this.collection.findOne({ id: sessionId }, { projection: { outbox: 1, outboxRevision: 1 } }),
      );
      const outbox: OutboxDocument[] = doc?.outbox ?? [];
      const entry = outbox.find((e) => e.eventId === eventId);
      if (!doc || !entry || entry.publishedAt !== null) return;
      const marked = outbox.map((e) => (e === entry ? { ...e, publishedAt } : e));
      const kept = keepAfterPublish(
        marked.map((e) => ({ e, sequence: Number(e.sequence), published: e.publishedAt !== null })),
      ).map((k) => k.e);
      const revision = doc.outboxRevision ?? null;
      const updated = await this.write(sessionId, () =>
        this.collection.findOneAndUpdate(
          { id: sessionId, outboxRevision: revision as number },
          {
            $set: { outbox: kept, ...outboxPendingFields(kept) },
            $inc: { outboxRevision: 1 },
          },
        ),
      );
      if (updated) return;
    }
    throw new GatewayError(
      "SERVICE_UNAVAILABLE",
      "The event outbox is busy; the event will be marked on the next look.",
      {
        metadata: { session_id: sessionId, event_id: eventId },
      },
    );
  }
}

/** The Mongo session store of `db`, with its indexes in place. */
export async function createMongoSessionRepository(db: Db): Promise<SessionRepository> {
  // useBigInt64: Int64 amounts come back as bigint, exactly, never as a JS number.
  const collection = db.collection<SessionDocument>(SESSIONS_COLLECTION, { useBigInt64: true });
  await ensureIndexes(collection);
  const locks = db.collection<WriteLockDocument>(SESSION_WRITE_LOCKS_COLLECTION);
  const repository = new MongoSessionRepository(collection, new DocumentWriteLock(locks));
  await repository.backfillNextDue(BACKFILL_BATCH);
  return repository;
}

/**
 * What a look covers: with `since`, work falling due between it and `now`, found by equality on
 * each minute in between (FerretDB reads only those sessions; on MongoDB the next_due_minute
 * index), or
 * when that is more than MAX_DUE_MINUTES minutes, by dates alone; without, everything due.
 */
function dueWindow(
  now: Date,
  since: Date | undefined,
): { minutes: Array<string | undefined>; range: { $lte: Date; $gte?: Date } } {
  if (!since) return { minutes: [undefined], range: { $lte: now } };
  const minutes: string[] = [];
  for (let at = Math.floor(since.getTime() / 60_000) * 60_000; at <= now.getTime(); at += 60_000)
    minutes.push(minuteOf(at));
  return {
    minutes: minutes.length <= MAX_DUE_MINUTES ? minutes : [undefined],
    range: { $gte: since, $lte: now },
  };
}
