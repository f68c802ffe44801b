import type { AcquirerAnswer, RefundRepository, Settlement, SettleResult } from "../../app/ports.js";
import type { AccountScope, Refund } from "../../domain/refund.js";
import type { PendingRefundEvent, RefundOutboxEvent } from "../../domain/refund-events.js";

const copy = (r: Refund): Refund => ({ ...r, scope: { ...r.scope } });

interface OutboxEntry extends RefundOutboxEvent {
  publishedAt: Date | null;
}

/** Copies the defined members of `changes` onto `refund` (undefined means "leave as is"). */
function applied(refund: Refund, changes: Partial<Refund>): Refund {
  const next: Refund = { ...refund };
  for (const [key, value] of Object.entries(changes))
    if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  return next;
}

/**
 * Refunds in memory (embedded mode, tests); hands out copies so callers cannot alter the store.
 * Every method reads and writes without yielding, so each is atomic in one process.
 */
export class InMemoryRefundRepository implements RefundRepository {
  private readonly byId = new Map<string, Refund>();
  private readonly outboxes = new Map<string, OutboxEntry[]>();
  /** Refunds with an unpublished event, oldest first: the relay's look never reads every refund. */
  private readonly pendingOutboxes = new Set<string>();
  private readonly settlements = new Map<string, Settlement>();

  async insert(refund: Refund): Promise<boolean> {
    if (this.byId.has(refund.id)) return false;
    this.byId.set(refund.id, copy(refund));
    return true;
  }

  async findById(scope: AccountScope, id: string): Promise<Refund | undefined> {
    const r = this.byId.get(id);
    return r !== undefined && r.scope.merchantId === scope.merchantId && r.scope.livemode === scope.livemode
      ? copy(r)
      : undefined;
  }

  async findByIdAnyScope(id: string): Promise<Refund | undefined> {
    const r = this.byId.get(id);
    return r === undefined ? undefined : copy(r);
  }

  async recordAcquirerAnswer(id: string, answer: AcquirerAnswer): Promise<Refund | undefined> {
    const r = this.byId.get(id);
    if (r === undefined || r.status !== "PENDING_MANUAL" || this.settlements.has(id)) return undefined;
    const next = applied(r, answer);
    this.byId.set(id, next);
    return copy(next);
  }

  async settle(id: string, settlement: Settlement): Promise<SettleResult | undefined> {
    const r = this.byId.get(id);
    if (r === undefined) return undefined;
    const earlier = this.settlements.get(id);
    if (earlier !== undefined || r.status !== "PENDING_MANUAL") return { refund: copy(r), won: false };
    this.settlements.set(id, settlement);
    const { event, ...changes } = settlement;
    const next = applied(r, changes);
    this.byId.set(id, next);
    this.outboxes.set(id, [...(this.outboxes.get(id) ?? []), { ...event, publishedAt: null }]);
    this.pendingOutboxes.add(id);
    return { refund: copy(next), won: true };
  }

  async listPendingManual(limit: number): Promise<Refund[]> {
    return [...this.byId.values()]
      .filter((r) => r.status === "PENDING_MANUAL")
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  async listBySession(scope: AccountScope, sessionId: string, limit: number): Promise<Refund[]> {
    return [...this.byId.values()]
      .filter(
        (r) =>
          r.sessionId === sessionId &&
          r.scope.merchantId === scope.merchantId &&
          r.scope.livemode === scope.livemode,
      )
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }

  async findPendingOutbox(limit: number): Promise<PendingRefundEvent[]> {
    const pending: PendingRefundEvent[] = [];
    for (const refundId of this.pendingOutboxes) {
      const entries = this.outboxes.get(refundId) ?? [];
      for (const { publishedAt, ...event } of entries) {
        if (publishedAt !== null) continue;
        if (pending.length >= limit) return pending;
        pending.push({ ...event, refundId });
      }
    }
    return pending;
  }

  /** Bounded memory (embedded mode): drops settled refunds created before `cutoff` whose events are published. */
  forgetOlderThan(cutoff: Date): number {
    let dropped = 0;
    for (const [id, r] of this.byId) {
      if (r.createdAt.getTime() >= cutoff.getTime() || r.status === "PENDING_MANUAL") continue;
      if ((this.outboxes.get(id) ?? []).some((e) => e.publishedAt === null)) continue;
      this.byId.delete(id);
      this.outboxes.delete(id);
      this.pendingOutboxes.delete(id);
      this.settlements.delete(id);
      dropped++;
    }
    return dropped;
  }

  async markOutboxPublished(refundId: string, eventId: string, publishedAt: Date): Promise<void> {
    const entries = this.outboxes.get(refundId) ?? [];
    const entry = entries.find((e) => e.eventId === eventId);
    if (entry !== undefined && entry.publishedAt === null) entry.publishedAt = publishedAt;
    if (entries.every((e) => e.publishedAt !== null)) this.pendingOutboxes.delete(refundId);
  }
}
