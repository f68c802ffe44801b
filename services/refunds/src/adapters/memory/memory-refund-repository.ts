import type { RefundChanges, RefundRepository } from "../../app/ports.js";
import type { AccountScope, Refund, RefundStatus } from "../../domain/refund.js";

const copy = (r: Refund): Refund => ({ ...r, scope: { ...r.scope } });

/** Refunds in memory (embedded mode, tests); hands out copies so callers cannot alter the store. */
export class InMemoryRefundRepository implements RefundRepository {
  private readonly byId = new Map<string, Refund>();

  async insert(refund: Refund): Promise<void> {
    if (this.byId.has(refund.id)) throw new Error(`refund ${refund.id} already exists`);
    this.byId.set(refund.id, copy(refund));
  }

  async findById(scope: AccountScope, id: string): Promise<Refund | undefined> {
    const r = this.byId.get(id);
    return r !== undefined && r.scope.merchantId === scope.merchantId && r.scope.livemode === scope.livemode ? copy(r) : undefined;
  }

  async findByIdAnyScope(id: string): Promise<Refund | undefined> {
    const r = this.byId.get(id);
    return r === undefined ? undefined : copy(r);
  }

  async updateIfStatus(id: string, expectedStatus: RefundStatus, changes: RefundChanges): Promise<Refund | undefined> {
    const r = this.byId.get(id);
    if (r === undefined || r.status !== expectedStatus) return undefined;
    const next: Refund = { ...r };
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
    this.byId.set(id, next);
    return copy(next);
  }

  async listPendingManual(limit: number): Promise<Refund[]> {
    return [...this.byId.values()]
      .filter((r) => r.status === "PENDING_MANUAL")
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(copy);
  }
}
