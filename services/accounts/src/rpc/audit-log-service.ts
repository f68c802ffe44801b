import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gateway/platform";
import {
  type AuditEntry as AuditEntryMessage,
  AuditEntrySchema,
  type AuditLogService,
  PageInfoSchema,
} from "@gateway/proto";
import type { AccountsDeps } from "../app/accounts-deps.js";
import { listAuditEntries, recordAuditEntry } from "../app/audit-log.js";
import type { AuditEntry } from "../domain/audit-entry.js";

function toProto(entry: AuditEntry): AuditEntryMessage {
  return create(AuditEntrySchema, { ...entry, createdAt: timestampFromDate(entry.createdAt) });
}

/** The dashboard's audit log: the edge records each action, owners read it. */
export class AuditLogRpc implements ServiceImpl<typeof AuditLogService> {
  constructor(private readonly deps: AccountsDeps & { logger: Logger }) {}

  async recordAuditEntry(req: {
    merchantId: string;
    actorUserId: string;
    actorEmail: string;
    action: string;
    target: string;
    livemode: boolean;
    ipAddress: string;
    userAgent: string;
  }) {
    return { entry: toProto(await recordAuditEntry(this.deps, req)) };
  }

  async listAuditEntries(req: { merchantId: string; page?: { limit: number; startingAfter: string } }) {
    const page = await listAuditEntries(this.deps, req.merchantId, {
      ...(req.page?.limit ? { limit: req.page.limit } : {}),
      ...(req.page?.startingAfter ? { startingAfter: req.page.startingAfter } : {}),
    });
    return {
      entries: page.items.map(toProto),
      pageInfo: create(PageInfoSchema, { hasMore: page.hasMore, nextCursor: page.nextCursor ?? "" }),
    };
  }
}
