import { GatewayError, newId, type Page, type PageQuery, readNewestFirstPage } from "@gateway/platform";
import { type AuditEntry, checkAuditEntry } from "../domain/audit-entry.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { requireId } from "./merchants.js";

/** Appends one dashboard action to the merchant's audit log, stamped with the service's time. */
export async function recordAuditEntry(
  deps: AccountsDeps,
  input: Omit<AuditEntry, "id" | "createdAt">,
): Promise<AuditEntry> {
  requireId("merchant_id", input.merchantId);
  const checked = checkAuditEntry(input);
  if (!checked.ok) throw GatewayError.validation(checked.violations);
  const entry: AuditEntry = { ...checked.entry, id: newId("aud"), createdAt: deps.clock.now() };
  await deps.repos.auditLog.append(entry);
  return entry;
}

/** One page of the merchant's audit log, newest first; a cursor of another merchant is refused. */
export function listAuditEntries(
  deps: AccountsDeps,
  merchantId: string,
  query: PageQuery,
): Promise<Page<AuditEntry>> {
  const id = requireId("merchant_id", merchantId);
  return readNewestFirstPage(query, {
    noun: "an audit entry",
    findCursor: (cursor) => deps.repos.auditLog.findPosition(id, cursor),
    read: (window) => deps.repos.auditLog.list(id, window),
  });
}
