import type { DashboardUser } from "@gateway/proto";
import type { DashboardRouteDeps } from "./dashboard-deps.js";
import type { DashboardPage } from "./dashboard-page.js";

/**
 * Records a dashboard action in the merchant's audit log (who, what, on what, from where), after
 * it succeeded. The action has happened whatever the log answers: a failure to record is logged
 * as an error for operators (with the action, never a secret) rather than undoing or hiding it.
 */
export async function audit(
  deps: DashboardRouteDeps,
  page: DashboardPage,
  action: string,
  target = "",
  /** Who acted, when the request has no signed-in user yet (sign-in itself). */
  actor?: { user: DashboardUser; livemode: boolean },
): Promise<void> {
  const log = deps.clients.auditLog;
  const who = actor ?? (page.viewer && { user: page.viewer.user, livemode: page.viewer.scope.livemode });
  if (!log || !who) return;
  try {
    await log.recordAuditEntry({
      merchantId: who.user.merchantId,
      actorUserId: who.user.id,
      actorEmail: who.user.email,
      action,
      target,
      livemode: who.livemode,
      ipAddress: page.request.ip,
      userAgent: page.request.headers["user-agent"] ?? "",
    });
  } catch (err) {
    page.request.log.error(
      { err, action, target, merchantId: who.user.merchantId },
      "dashboard action not recorded in the audit log",
    );
  }
}
