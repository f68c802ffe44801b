import {
  type ListPosition,
  NEWEST_FIRST_SORT,
  newestFirstWindowFilter,
  type PageWindow,
  pageOfWindow,
} from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { AuditLogRepository } from "../../app/ports.js";
import type { AuditEntry } from "../../domain/audit-entry.js";
import { runMongo } from "./mongo-errors.js";

export const AUDIT_LOG_COLLECTION = "dashboard_audit_log";

/** One document per entry; `id` is our public id (the cursor), `_id` the driver's. */
type AuditDocument = AuditEntry;

export function auditLogCollection(db: Db): Collection<AuditDocument> {
  return db.collection<AuditDocument>(AUDIT_LOG_COLLECTION);
}

export class MongoAuditLogRepository implements AuditLogRepository {
  private readonly entries: Collection<AuditDocument>;

  constructor(db: Db) {
    this.entries = auditLogCollection(db);
  }

  append(entry: AuditEntry): Promise<void> {
    return runMongo(async () => {
      await this.entries.insertOne({ ...entry });
    });
  }

  findPosition(merchantId: string, id: string): Promise<ListPosition | undefined> {
    return runMongo(async () => {
      const doc = await this.entries.findOne({ merchantId, id }, { projection: { createdAt: 1, id: 1 } });
      return doc ? { createdAt: doc.createdAt, id: doc.id } : undefined;
    });
  }

  list(merchantId: string, window: PageWindow): Promise<{ items: AuditEntry[]; hasMore: boolean }> {
    return runMongo(async () => {
      const docs = await this.entries
        .find({ merchantId, ...newestFirstWindowFilter({}, window) }, { projection: { _id: 0 } })
        .sort(NEWEST_FIRST_SORT)
        .limit(window.limit + 1)
        .toArray();
      return pageOfWindow(docs as AuditEntry[], window);
    });
  }
}
