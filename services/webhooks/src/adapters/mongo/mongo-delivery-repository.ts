import { batchedInserts, NEWEST_FIRST_SORT, newestFirstWindowFilter, pageOfWindow } from "@gateway/platform";
import type { Collection, Db, Filter } from "mongodb";
import type {
  DeliveryFilter,
  DeliveryPage,
  DeliveryRepository,
  InsertOutcome,
  ListPosition,
} from "../../app/ports.js";
import type { AccountScope } from "../../domain/account-scope.js";
import type { Delivery, DeliveryResult, DeliveryStatus, DeliveryTrigger } from "../../domain/delivery.js";
import { ensureIndexes, type IndexDeclaration } from "./ensure-indexes.js";
import { runMongo } from "./mongo-errors.js";

export const DELIVERIES_COLLECTION = "deliveries";
export const LEASES_COLLECTION = "delivery_leases";

/** Candidates read per claim beyond the number wanted; racing dispatchers that lose one move on to the next. */
const CLAIM_CANDIDATES = 16;

/** One attempt per document; optional values are stored as null so every field can be filtered on. */
export interface DeliveryDocument {
  id: string;
  merchantId: string;
  livemode: boolean;
  sessionId: string;
  event: string;
  eventId: string;
  url: string;
  attemptNumber: number;
  chainAttempt: number;
  trigger: DeliveryTrigger;
  status: DeliveryStatus;
  httpStatusCode: number | null;
  responseTimeMs: number | null;
  errorMessage: string | null;
  nextRetryAt: Date | null;
  createdAt: Date;
  dueAt: Date;
  completedAt: Date | null;
  /** Absent on deliveries recorded before they were kept. */
  requestHeaders?: Record<string, string> | null;
  responseExcerpt?: string | null;
  claimToken: string | null;
  claimedUntil: Date | null;
  /** A lease ticket decided some claim of this attempt: completing it must remove the tickets. */
  ticketed?: boolean;
  /** True once a later attempt of the event exists (absent: not known to be). */
  superseded?: boolean;
}

/**
 * A lease ticket: who won the attempt whose lease was `previousUntil` (or none). Its unique key
 * decides between racing claimers; the ticket is removed once the attempt is complete.
 */
interface LeaseDocument {
  key: string;
  deliveryId: string;
  token: string;
  /** The lease the winner was to record; a ticket still here after it ran out belongs to a crashed winner. */
  until: Date;
  createdAt: Date;
}

const LEASE_INDEXES: readonly IndexDeclaration[] = [
  { key: { key: 1 }, options: { name: "key_unique", unique: true } },
  { key: { deliveryId: 1 }, options: { name: "by_delivery" } },
];

const INDEXES: readonly IndexDeclaration[] = [
  { key: { id: 1 }, options: { name: "id_unique", unique: true } },
  // Attempt numbers are handed out by the event document; this keeps a slip from ever doubling one.
  { key: { eventId: 1, attemptNumber: 1 }, options: { name: "event_attempt_unique", unique: true } },
  // The work queue: PENDING attempts by due time.
  { key: { status: 1, dueAt: 1 }, options: { name: "due_pending" } },
  { key: { merchantId: 1, livemode: 1, createdAt: -1, id: -1 }, options: { name: "list_newest_first" } },
  {
    key: { merchantId: 1, livemode: 1, sessionId: 1, createdAt: -1, id: -1 },
    options: { name: "list_by_session" },
  },
];

function toDocument(d: Delivery): DeliveryDocument {
  return {
    id: d.id,
    merchantId: d.scope.merchantId,
    livemode: d.scope.livemode,
    sessionId: d.sessionId,
    event: d.event,
    eventId: d.eventId,
    url: d.url,
    attemptNumber: d.attemptNumber,
    chainAttempt: d.chainAttempt,
    trigger: d.trigger,
    status: d.status,
    httpStatusCode: d.httpStatusCode ?? null,
    responseTimeMs: d.responseTimeMs ?? null,
    errorMessage: d.errorMessage ?? null,
    nextRetryAt: d.nextRetryAt ?? null,
    createdAt: d.createdAt,
    dueAt: d.dueAt,
    completedAt: d.completedAt ?? null,
    requestHeaders: d.requestHeaders ?? null,
    responseExcerpt: d.responseExcerpt ?? null,
    claimToken: d.claim?.token ?? null,
    claimedUntil: d.claim?.until ?? null,
  };
}

function fromDocument(doc: DeliveryDocument): Delivery {
  return {
    id: doc.id,
    scope: { merchantId: doc.merchantId, livemode: doc.livemode },
    sessionId: doc.sessionId,
    event: doc.event,
    eventId: doc.eventId,
    url: doc.url,
    attemptNumber: doc.attemptNumber,
    chainAttempt: doc.chainAttempt,
    trigger: doc.trigger,
    status: doc.status,
    ...(doc.httpStatusCode != null ? { httpStatusCode: doc.httpStatusCode } : {}),
    ...(doc.responseTimeMs != null ? { responseTimeMs: doc.responseTimeMs } : {}),
    ...(doc.errorMessage != null ? { errorMessage: doc.errorMessage } : {}),
    ...(doc.nextRetryAt != null ? { nextRetryAt: doc.nextRetryAt } : {}),
    createdAt: doc.createdAt,
    dueAt: doc.dueAt,
    ...(doc.completedAt != null ? { completedAt: doc.completedAt } : {}),
    ...(doc.requestHeaders != null ? { requestHeaders: doc.requestHeaders } : {}),
    ...(doc.responseExcerpt != null ? { responseExcerpt: doc.responseExcerpt } : {}),
    ...(doc.claimToken != null && doc.claimedUntil != null
      ? { claim: { token: doc.claimToken, until: doc.claimedUntil } }
      : {}),
  };
}

const scopeFilter = (scope: AccountScope) => ({ merchantId: scope.merchantId, livemode: scope.livemode });

/**
 * Delivery attempts in MongoDB (or FerretDB). Claiming a due attempt is decided by inserting a
 * lease ticket keyed by (attempt, the lease it replaces) under a unique index: of all the
 * dispatchers that saw the attempt free, exactly one inserts it, then records its lease on the
 * attempt. (A findOneAndUpdate would do on MongoDB, but FerretDB 1.24 does not apply concurrent
 * conditional updates atomically; unique inserts hold on both.) An outcome is written only by
 * the lease holder, so replicas never send one attempt twice while its lease lasts.
 */
export class MongoDeliveryRepository implements DeliveryRepository {
  /** First attempts queued together are stored with one command (docs/decisions.md#concurrent-inserts-share-one-command). */
  private readonly insertOne: (doc: DeliveryDocument) => Promise<InsertOutcome>;
  /** The tickets of one look's claims, taken side by side, go out together too. */
  private readonly insertTicket: (doc: LeaseDocument) => Promise<InsertOutcome>;

  constructor(
    private readonly collection: Collection<DeliveryDocument>,
    private readonly leases: Collection<LeaseDocument>,
  ) {
    this.insertOne = batchedInserts(collection, runMongo);
    this.insertTicket = batchedInserts(leases, runMongo);
  }

  async insert(delivery: Delivery): Promise<InsertOutcome> {
    return this.insertOne(toDocument(delivery));
  }

  async findById(id: string): Promise<Delivery | undefined> {
    const doc = await runMongo(() => this.collection.findOne({ id }));
    return doc ? fromDocument(doc) : undefined;
  }

  async findInScope(scope: AccountScope, id: string): Promise<Delivery | undefined> {
    const doc = await runMongo(() => this.collection.findOne({ ...scopeFilter(scope), id }));
    return doc ? fromDocument(doc) : undefined;
  }

  async latestForEvent(eventId: string): Promise<Delivery | undefined> {
    const doc = await runMongo(() =>
      this.collection.find({ eventId }).sort({ attemptNumber: -1 }).limit(1).next(),
    );
    return doc ? fromDocument(doc) : undefined;
  }

  async markSuperseded(eventId: string, attemptNumber: number): Promise<void> {
    await runMongo(() =>
      this.collection.updateMany(
        { eventId, attemptNumber: { $lt: attemptNumber }, superseded: { $ne: true } },
        { $set: { superseded: true } },
      ),
    );
  }

  async claimNextDue(
    now: Date,
    leaseUntil: Date,
    token: string,
    skipUrls: readonly string[] = [],
  ): Promise<Delivery | undefined> {
    return (await this.claimDue(now, leaseUntil, [token], skipUrls))[0];
  }

  async claimDue(
    now: Date,
    leaseUntil: Date,
    tokens: readonly string[],
    skipUrls: readonly string[] = [],
  ): Promise<Delivery[]> {
    if (tokens.length === 0) return [];
    const candidates = await this.dueDocuments(now, tokens.length + CLAIM_CANDIDATES, skipUrls);
    // One taker per token, side by side; each tries the next candidate no taker of this call has
    // tried, so they never race each other, only other dispatchers.
    let next = 0;
    const won: Delivery[] = [];
    await Promise.all(
      tokens.map(async (token) => {
        while (next < candidates.length) {
          const taken = await this.take(candidates[next++]!, now, leaseUntil, token);
          if (taken) {
            won.push(taken);
            return;
          }
        }
      }),
    );
    return won.sort((x, y) => x.dueAt.getTime() - y.dueAt.getTime());
  }

  async findDue(now: Date, limit: number, skipUrls: readonly string[] = []): Promise<Delivery[]> {
    if (limit <= 0) return [];
    return (await this.dueDocuments(now, limit, skipUrls)).map(fromDocument);
  }

  /** Due attempts with no live lease, oldest due first. */
  private dueDocuments(now: Date, limit: number, skipUrls: readonly string[]): Promise<DeliveryDocument[]> {
    return runMongo(() =>
      this.collection
        .find({
          status: "PENDING",
          dueAt: { $lte: now },
          $or: [{ claimedUntil: null }, { claimedUntil: { $lte: now } }],
          ...(skipUrls.length > 0 ? { url: { $nin: [...skipUrls] } } : {}),
        })
        .sort({ dueAt: 1 })
        .limit(limit)
        .toArray(),
    );
  }

  async claimIfDue(id: string, now: Date, leaseUntil: Date, token: string): Promise<Delivery | undefined> {
    const candidate = await runMongo(() => this.collection.findOne({ id }));
    if (candidate?.status !== "PENDING" || candidate.dueAt.getTime() > now.getTime()) return undefined;
    if (candidate.claimedUntil && candidate.claimedUntil.getTime() > now.getTime()) return undefined;
    return this.take(candidate, now, leaseUntil, token);
  }

  /** Takes a PENDING attempt seen with lease `claimedUntil`: the ticket decides, then the lease is recorded. */
  private async take(
    candidate: DeliveryDocument,
    now: Date,
    leaseUntil: Date,
    token: string,
  ): Promise<Delivery | undefined> {
    const previousUntil = candidate.claimedUntil ?? null;
    const key = `${candidate.id}|${previousUntil ? previousUntil.getTime() : "free"}`;
    if (
      !(await this.takeTicket(
        { key, deliveryId: candidate.id, token, until: leaseUntil, createdAt: now },
        now,
      ))
    )
      return undefined;
    const taken = await runMongo(() =>
      this.collection.updateOne(
        { id: candidate.id, status: "PENDING", claimedUntil: previousUntil },
        { $set: { claimToken: token, claimedUntil: leaseUntil, ticketed: true } },
      ),
    );
    // Not modified: completed between our read and our ticket, nothing to send.
    return taken.modifiedCount === 1
      ? fromDocument({ ...candidate, claimToken: token, claimedUntil: leaseUntil })
      : undefined;
  }

  /** Inserts the ticket; false when another dispatcher holds it. */
  private async takeTicket(ticket: LeaseDocument, now: Date): Promise<boolean> {
    const insert = async () => (await this.insertTicket({ ...ticket })) === "inserted";
    if (await insert()) return true;
    // A winner that died between its ticket and its lease would block the attempt for good:
    // once the lease it was to take has run out, its ticket is removed and the race runs again.
    const held = await runMongo(() => this.leases.findOne({ key: ticket.key }));
    if (!held || held.until.getTime() > now.getTime()) return false;
    await runMongo(() => this.leases.deleteOne({ key: ticket.key, token: held.token }));
    return insert();
  }

  async complete(id: string, token: string, result: DeliveryResult): Promise<boolean> {
    const before = await runMongo(() =>
      this.collection.findOneAndUpdate(
        { id, status: "PENDING", claimToken: token },
        {
          $set: {
            status: result.status,
            url: result.url,
            httpStatusCode: result.httpStatusCode ?? null,
            responseTimeMs: result.responseTimeMs ?? null,
            errorMessage: result.errorMessage ?? null,
            nextRetryAt: result.nextRetryAt ?? null,
            completedAt: result.completedAt,
            requestHeaders: result.requestHeaders ?? null,
            responseExcerpt: result.responseExcerpt ?? null,
            claimToken: null,
            claimedUntil: null,
          },
        },
        // No projection: FerretDB 1.24 refuses one on findAndModify.
        { returnDocument: "before" },
      ),
    );
    if (!before) return false;
    // The tickets only ever decided races over a PENDING attempt: this one is over. An attempt
    // stored already leased to its sender (the usual first attempt) never had one.
    if (before.ticketed)
      await runMongo(() => this.leases.deleteMany({ deliveryId: id })).catch(() => undefined);
    return true;
  }

  async release(id: string, token: string, now: Date): Promise<boolean> {
    // The lease ends now rather than vanishing: the next taker's ticket is keyed by this end, so
    // it never collides with a ticket from an earlier lease of the same attempt.
    const released = await runMongo(() =>
      this.collection.updateOne(
        { id, status: "PENDING", claimToken: token, claimedUntil: { $gt: now } },
        { $set: { claimToken: null, claimedUntil: now } },
      ),
    );
    return released.modifiedCount === 1;
  }

  async list(
    scope: AccountScope,
    filter: DeliveryFilter,
    page: { limit: number; after?: ListPosition },
  ): Promise<DeliveryPage> {
    const query: Filter<DeliveryDocument> = { ...scopeFilter(scope) };
    if (filter.status !== undefined) query.status = filter.status;
    if (filter.event !== undefined) query.event = filter.event;
    if (filter.sessionId !== undefined) query.sessionId = filter.sessionId;
    if (filter.eventId !== undefined) query.eventId = filter.eventId;
    if (filter.latestOnly) query.superseded = { $ne: true };
    Object.assign(query, newestFirstWindowFilter(filter, page));
    const docs = await runMongo(() =>
      this.collection
        .find(query)
        .sort(NEWEST_FIRST_SORT)
        .limit(page.limit + 1)
        .toArray(),
    );
    const { items, hasMore } = pageOfWindow(docs, page);
    return { deliveries: items.map(fromDocument), hasMore };
  }
}

export async function createMongoDeliveryRepository(db: Db): Promise<MongoDeliveryRepository> {
  const collection = db.collection<DeliveryDocument>(DELIVERIES_COLLECTION);
  const leases = db.collection<LeaseDocument>(LEASES_COLLECTION);
  await ensureIndexes(collection, INDEXES);
  await ensureIndexes(leases, LEASE_INDEXES);
  return new MongoDeliveryRepository(collection, leases);
}
