import type { FieldViolation } from "@gateway/platform";

/** One dashboard action: who did what, on what, when and from where. */
export interface AuditEntry {
  id: string;
  merchantId: string;
  /** The dashboard user; the page names them by email (kept as it was at the time). */
  actorUserId: string;
  actorEmail: string;
  /** Dotted action name, e.g. `api_key.rolled`, `refund.created`, `webhook.secret_rotated`. */
  action: string;
  /** What it acted on (an id), empty when nothing in particular. */
  target: string;
  livemode: boolean;
  ipAddress: string;
  /** The browser's User-Agent, at most USER_AGENT_KEPT characters. */
  userAgent: string;
  createdAt: Date;
}

export const USER_AGENT_KEPT = 256;
const ACTION = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Checks a new entry's fields; trims the User-Agent to what is kept. */
export function checkAuditEntry(
  input: Omit<AuditEntry, "id" | "createdAt">,
): { ok: true; entry: Omit<AuditEntry, "id" | "createdAt"> } | { ok: false; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  if (!ACTION.test(input.action) || input.action.length > 64)
    violations.push({
      field: "action",
      code: "invalid",
      message: "action must be a dotted name like api_key.rolled.",
    });
  if (input.actorUserId === "")
    violations.push({ field: "actor_user_id", code: "required", message: "actor_user_id is required." });
  if (input.target.length > 200)
    violations.push({
      field: "target",
      code: "invalid",
      message: "target must have at most 200 characters.",
    });
  if (input.ipAddress.length > 64)
    violations.push({
      field: "ip_address",
      code: "invalid",
      message: "ip_address must have at most 64 characters.",
    });
  if (violations.length > 0) return { ok: false, violations };
  return {
    ok: true,
    entry: { ...input, userAgent: [...input.userAgent].slice(0, USER_AGENT_KEPT).join("") },
  };
}
