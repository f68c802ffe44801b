import { copyRecord, NewestFirstIndex } from "@gateway/platform";
import type {
  DeliveryFilter,
  DeliveryPage,
  DeliveryRepository,
  InsertOutcome,
  ListPosition,
} from "../../app/ports.js";
import { type AccountScope, sameScope } from "../../domain/account-scope.js";
import type { Delivery, DeliveryResult } from "../../domain/delivery.js";

const copy = (d: Delivery): Delivery => copyRecord(d);

/** Whether `d` passes every filter of a delivery list that is set. */
function matches(d: Delivery, f: DeliveryFilter): boolean {
  return (
    (f.status === undefined || d.status === f.status) &&
    (f.event === undefined || d.event === f.event) &&
    (f.sessionId === undefined || d.sessionId === f.sessionId) &&
    (f.eventId === undefined || d.eventId === f.eventId) &&
    (f.createdGte === undefined || d.createdAt.getTime() >= f.createdGte.getTime()) &&
    (f.createdLte === undefined || d.createdAt.getTime() <= f.createdLte.getTime())
  );
}

/** Attempts known to have a later attempt of their event (kept apart from the records). */
type Superseded = Set<string>;

/** Delivery attempts in this process (embedded mode, unit tests); each call is atomic. */
export class InMemoryDeliveryRepository implements DeliveryRepository {
  private readonly byId = new Map<string, Delivery>();
  private readonly superseded: Superseded = new Set();
  /** The attempts of each event, by id: what an insert, a supersede or a latest reads. */
  private readonly idsByEvent = new Map<string, Set<string>>();
  /** Attempts still PENDING: the dispatcher's looks read these, never every attempt kept. */
  private readonly pending = new Set<string>();
  /** Each account's attempts in list order: a page reads only what it shows. */
  private readonly listed = new NewestFirstIndex();

  async insert(delivery: Delivery): Promise<InsertOutcome> {
    if (this.byId.has(delivery.id)) return "already_exists";
    const ofEvent = this.attemptsOf(delivery.eventId);
    if (ofEvent.some((d) => d.attemptNumber === delivery.attemptNumber)) return "already_exists";
    this.byId.set(delivery.id, copy(delivery));
    const ids = this.idsByEvent.get(delivery.eventId) ?? new Set<string>();
    this.idsByEvent.set(delivery.eventId, ids.add(delivery.id));
    if (delivery.status === "PENDING") this.pending.add(delivery.id);
    this.listed.add(delivery.scope, delivery);
    return "inserted";
  }

  private attemptsOf(eventId: string): Delivery[] {
    return [...(this.idsByEvent.get(eventId) ?? [])].map((id) => this.byId.get(id)!);
  }

  async findById(id: string): Promise<Delivery | undefined> {
    const d = this.byId.get(id);
    return d ? copy(d) : undefined;
  }

  async findInScope(scope: AccountScope, id: string): Promise<Delivery | undefined> {
    const d = this.byId.get(id);
    return d && sameScope(d.scope, scope) ? copy(d) : undefined;
  }

  async latestForEvent(eventId: string): Promise<Delivery | undefined> {
    let latest: Delivery | undefined;
    for (const d of this.attemptsOf(eventId)) {
      if (!latest || d.attemptNumber > latest.attemptNumber) latest = d;
    }
    return latest ? copy(latest) : undefined;
  }

  async markSuperseded(eventId: string, attemptNumber: number): Promise<void> {
    for (const d of this.attemptsOf(eventId)) if (d.attemptNumber < attemptNumber) this.superseded.add(d.id);
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
    return this.dueOldestFirst(now, tokens.length, skipUrls).map((d, i) => {
      d.claim = { token: tokens[i]!, until: new Date(leaseUntil) };
      return copy(d);
    });
  }

  async findDue(now: Date, limit: number, skipUrls: readonly string[] = []): Promise<Delivery[]> {
    return this.dueOldestFirst(now, limit, skipUrls).map(copy);
  }

  private dueOldestFirst(now: Date, limit: number, skipUrls: readonly string[]): Delivery[] {
    return [...this.pending]
      .map((id) => this.byId.get(id)!)
      .filter(
        (d) =>
          d.status === "PENDING" &&
          d.dueAt.getTime() <= now.getTime() &&
          !(d.claim && d.claim.until.getTime() > now.getTime()) &&
          !skipUrls.includes(d.url),
      )
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
      .slice(0, limit);
  }

  async claimIfDue(id: string, now: Date, leaseUntil: Date, token: string): Promise<Delivery | undefined> {
    const d = this.byId.get(id);
    if (d?.status !== "PENDING" || d.dueAt.getTime() > now.getTime()) return undefined;
    if (d.claim && d.claim.until.getTime() > now.getTime()) return undefined;
    d.claim = { token, until: new Date(leaseUntil) };
    return copy(d);
  }

  async complete(id: string, token: string, result: DeliveryResult): Promise<boolean> {
    const d = this.byId.get(id);
    if (d?.status !== "PENDING" || d.claim?.token !== token) return false;
    const {
      claim: _released,
      httpStatusCode: _h,
      responseTimeMs: _r,
      errorMessage: _e,
      nextRetryAt: _n,
      requestHeaders: _q,
      responseExcerpt: _x,
      ...kept
    } = d;
    this.byId.set(id, { ...kept, ...copyRecord(result) });
    this.pending.delete(id);
    return true;
  }

  async release(id: string, token: string, now: Date): Promise<boolean> {
    const d = this.byId.get(id);
    if (d?.status !== "PENDING" || d.claim?.token !== token) return false;
    if (d.claim.until.getTime() <= now.getTime()) return false;
    delete d.claim;
    return true;
  }

  /** Bounded memory (embedded mode): drops finished deliveries created before `cutoff`; returns how many. */
  forgetOlderThan(cutoff: Date): number {
    let dropped = 0;
    for (const [id, d] of this.byId) {
      if (d.status === "PENDING" || d.createdAt.getTime() >= cutoff.getTime()) continue;
      this.byId.delete(id);
      this.superseded.delete(id);
      this.listed.delete(d.scope, d);
      const ofEvent = this.idsByEvent.get(d.eventId);
      ofEvent?.delete(id);
      if (ofEvent?.size === 0) this.idsByEvent.delete(d.eventId);
      dropped++;
    }
    return dropped;
  }

  async list(
    scope: AccountScope,
    filter: DeliveryFilter,
    page: { limit: number; after?: ListPosition },
  ): Promise<DeliveryPage> {
    const { items, hasMore } = this.listed.page(scope, page, {
      load: (id) => this.byId.get(id)!,
      matches: (d) => matches(d, filter) && !(filter.latestOnly && this.superseded.has(d.id)),
      createdGte: filter.createdGte,
    });
    return { deliveries: items.map(copy), hasMore };
  }
}
