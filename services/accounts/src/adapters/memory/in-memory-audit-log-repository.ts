import {
  copyRecord,
  isAfterPosition,
  type ListPosition,
  newestFirst,
  type PageWindow,
} from "@gateway/platform";
import type { AuditLogRepository } from "../../app/ports.js";
import type { AuditEntry } from "../../domain/audit-entry.js";

/** Audit entries in memory, per merchant, newest first by (createdAt, id). */
export class InMemoryAuditLogRepository implements AuditLogRepository {
  private readonly byMerchant = new Map<string, AuditEntry[]>();

  async append(entry: AuditEntry): Promise<void> {
    const list = this.byMerchant.get(entry.merchantId) ?? [];
    list.push(copyRecord(entry));
    list.sort(newestFirst);
    this.byMerchant.set(entry.merchantId, list);
  }

  async findPosition(merchantId: string, id: string): Promise<ListPosition | undefined> {
    const found = this.byMerchant.get(merchantId)?.find((e) => e.id === id);
    return found && { createdAt: found.createdAt, id: found.id };
  }

  async list(merchantId: string, window: PageWindow): Promise<{ items: AuditEntry[]; hasMore: boolean }> {
    const after = window.after;
    const rows = (this.byMerchant.get(merchantId) ?? []).filter((e) => !after || isAfterPosition(e, after));
    return {
      items: rows.slice(0, window.limit).map((e) => copyRecord(e)),
      hasMore: rows.length > window.limit,
    };
  }
}
