import { copyRecord, NewestFirstIndex } from "@gateway/platform";
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
import { type AccountScope, type Session, type SessionChanges, withChanges } from "../../domain/session.js";
import { sweepDueTimes } from "../../domain/sweep-schedule.js";
import { DueIndex } from "./due-index.js";
import {
  decodeStoredSession,
  type StoredSession,
  storedInScope,
  storedMatchesListFilter,
  storeSession,
} from "./stored-session.js";

const accountKey = (scope: AccountScope): string => JSON.stringify([scope.merchantId, scope.livemode]);

interface OutboxEntry {
  event: OutboxEvent;
  publishedAt?: Date;
}

/**
 * Sessions in process memory (embedded mode, unit tests). Each method runs without awaiting in
 * between, so it is atomic in Node's single thread, with the same uniqueness rules as the Mongo
 * store. Sessions are kept encoded (stored-session.ts): callers never share mutable state with it.
 */
export class InMemorySessionRepository implements SessionRepository {
  private readonly byId = new Map<string, StoredSession>();
  /**
   * Account -> merchant reference -> session id. Keyed by the reference itself, which the stored
   * session already holds: a key made for each session (account and reference in one string)
   * was three more heap objects per session.
   */
  private readonly byReference = new Map<string, Map<string, string>>();
  private readonly orderNumbers = new Set<string>();
  /** Checkout token -> session id. */
  private readonly checkoutTokens = new Map<string, string>();
  /** Acquirer order id -> session id. */
  private readonly acquirerOrders = new Map<string, string>();
  private readonly outboxes = new Map<string, OutboxEntry[]>();
  /** Sessions with unpublished events, oldest first: the relay's look never scans every session. */
  private readonly pendingSessions = new Set<string>();
  /** When each session falls due for the sweeper: its looks never read every session. */
  private readonly due = new DueIndex();
  /** Each account's sessions in list order: a page reads only what it shows. */
  private readonly listed = new NewestFirstIndex();

  async insert(session: Session): Promise<InsertResult> {
    const references = this.referencesOf(session.scope);
    const winnerId = references.get(session.merchantReference);
    if (winnerId !== undefined) {
      return {
        inserted: false,
        duplicate: "merchant_reference",
        existing: decodeStoredSession(this.byId.get(winnerId)!),
      };
    }
    const tokens = session.checkoutLinks.map((link) => link.token);
    if (
      this.byId.has(session.id) ||
      this.orderNumbers.has(session.orderNumber) ||
      tokens.some((token) => this.checkoutTokens.has(token)) ||
      new Set(tokens).size !== tokens.length
    ) {
      return { inserted: false, duplicate: "generated_value" };
    }
    this.byId.set(session.id, storeSession(session));
    references.set(session.merchantReference, session.id);
    this.orderNumbers.add(session.orderNumber);
    for (const token of tokens) this.checkoutTokens.set(token, session.id);
    this.indexAcquirerOrders(session);
    this.due.set(session.id, sweepDueTimes(session));
    this.listed.add(session.scope, session);
    return { inserted: true };
  }

  async findById(scope: AccountScope, id: string): Promise<Session | undefined> {
    const stored = this.byId.get(id);
    return stored && storedInScope(stored, scope) ? decodeStoredSession(stored) : undefined;
  }

  async findByReference(scope: AccountScope, merchantReference: string): Promise<Session | undefined> {
    const id = this.byReference.get(accountKey(scope))?.get(merchantReference);
    return id === undefined ? undefined : decodeStoredSession(this.byId.get(id)!);
  }

  async findByCheckoutToken(token: string): Promise<Session | undefined> {
    const id = this.checkoutTokens.get(token);
    return id === undefined ? undefined : decodeStoredSession(this.byId.get(id)!);
  }

  async findByAcquirerOrderId(acquirerOrderId: string): Promise<Session | undefined> {
    const id = this.acquirerOrders.get(acquirerOrderId);
    return id === undefined ? undefined : decodeStoredSession(this.byId.get(id)!);
  }

  async list(
    scope: AccountScope,
    filter: SessionListFilter,
    page: { limit: number; after?: ListPosition },
  ): Promise<SessionPage> {
    const { items, hasMore } = this.listed.page(scope, page, {
      load: (id) => this.byId.get(id)!,
      matches: (stored) => storedMatchesListFilter(stored, filter),
      createdGte: filter.createdGte,
    });
    return { sessions: items.map(decodeStoredSession), hasMore };
  }

  async updateIf(
    decidedOn: Session,
    changes: SessionChanges,
    events: readonly OutboxEvent[] = [],
  ): Promise<UpdateResult> {
    const { id } = decidedOn;
    const stored = this.byId.get(id);
    if (!stored || !storedInScope(stored, decidedOn.scope)) return { updated: false, current: undefined };
    const current = decodeStoredSession(stored);
    if (stored.version !== decidedOn.version) return { updated: false, current };
    const newTokens = (changes.checkoutLinks ?? [])
      .map((link) => link.token)
      .filter((token) => !current.checkoutLinks.some((link) => link.token === token));
    if (newTokens.some((token) => this.checkoutTokens.has(token))) {
      throw new Error("checkout token collision"); // 190 random bits: a bug, not bad luck
    }
    const updated: Session = { ...withChanges(current, changes), version: stored.version + 1 };
    this.byId.set(id, storeSession(updated, stored));
    for (const token of newTokens) this.checkoutTokens.set(token, id);
    this.indexAcquirerOrders(updated);
    this.due.set(id, sweepDueTimes(updated));
    if (events.length > 0) {
      const outbox = this.outboxes.get(id) ?? [];
      for (const event of events) outbox.push({ event: copyRecord(event) });
      this.outboxes.set(id, outbox);
      this.pendingSessions.add(id);
    }
    return { updated: true, session: copyRecord(updated) };
  }

  async findDue(now: Date, limit: number, dueSince?: Date): Promise<Session[]> {
    return [...this.due.dueBetween(dueSince?.getTime() ?? -Infinity, now.getTime())]
      .map((id) => ({ id, firstTime: this.due.firstTime(id)! }))
      .sort((a, b) => a.firstTime - b.firstTime)
      .slice(0, limit)
      .map(({ id }) => decodeStoredSession(this.byId.get(id)!));
  }

  async findPendingOutbox(limit: number): Promise<PendingOutboxEvent[]> {
    const pending: PendingOutboxEvent[] = [];
    for (const sessionId of this.pendingSessions) {
      const entries = (this.outboxes.get(sessionId) ?? [])
        .filter((e) => e.publishedAt === undefined)
        .sort((a, b) => a.event.sequence - b.event.sequence);
      for (const entry of entries) {
        if (pending.length >= limit) return pending;
        pending.push({ sessionId, ...copyRecord(entry.event) });
      }
    }
    return pending;
  }

  async markOutboxPublished(sessionId: string, eventId: string, publishedAt: Date): Promise<void> {
    const outbox = this.outboxes.get(sessionId);
    const entry = outbox?.find((e) => e.event.eventId === eventId);
    if (!outbox || !entry || entry.publishedAt !== undefined) return;
    entry.publishedAt = new Date(publishedAt);
    const kept = keepAfterPublish(
      outbox.map((e) => ({ entry: e, sequence: e.event.sequence, published: e.publishedAt !== undefined })),
    );
    this.outboxes.set(
      sessionId,
      kept.map((k) => k.entry),
    );
    if (!kept.some((k) => !k.published)) this.pendingSessions.delete(sessionId);
  }

  /** Every outbox entry of a session, published or not (tests and support). */
  outboxOf(sessionId: string): Array<OutboxEvent & { publishedAt?: Date }> {
    return (this.outboxes.get(sessionId) ?? []).map((e) => ({
      ...copyRecord(e.event),
      ...(e.publishedAt ? { publishedAt: new Date(e.publishedAt) } : {}),
    }));
  }

  /**
   * Bounded memory (embedded mode): drops sessions created before `cutoff` that have no work
   * left (nothing for the sweeper, no unpublished event), with their indexes and outbox.
   * Returns how many it dropped.
   */
  forgetOlderThan(cutoff: Date): number {
    let dropped = 0;
    for (const [id, stored] of this.byId) {
      if (stored.createdAtMs >= cutoff.getTime()) continue;
      if (this.due.firstTime(id) !== undefined || this.pendingSessions.has(id)) continue;
      const session = decodeStoredSession(stored);
      this.byId.delete(id);
      this.byReference.get(accountKey(session.scope))?.delete(session.merchantReference);
      this.orderNumbers.delete(session.orderNumber);
      for (const link of session.checkoutLinks) this.checkoutTokens.delete(link.token);
      for (const attempt of session.attempts)
        if (attempt.acquirerOrderId !== undefined) this.acquirerOrders.delete(attempt.acquirerOrderId);
      this.outboxes.delete(id);
      this.due.delete(id);
      this.listed.delete(session.scope, session);
      dropped++;
    }
    return dropped;
  }

  /** How many sessions are kept (tests of bounded memory). */
  get size(): number {
    return this.byId.size;
  }

  private referencesOf(scope: AccountScope): Map<string, string> {
    const account = accountKey(scope);
    let references = this.byReference.get(account);
    if (!references) {
      references = new Map();
      this.byReference.set(account, references);
    }
    return references;
  }

  private indexAcquirerOrders(session: Session): void {
    for (const attempt of session.attempts) {
      if (attempt.acquirerOrderId !== undefined) this.acquirerOrders.set(attempt.acquirerOrderId, session.id);
    }
  }
}

export function createMemorySessionRepository(): InMemorySessionRepository {
  return new InMemorySessionRepository();
}
