/** What a dashboard user may change; reading is open to every role of the merchant. */
export type DashboardAction =
  | "refund"
  | "cancel"
  | "manage_settings"
  | "manage_keys"
  | "manage_webhooks"
  | "manage_users"
  | "read_audit";

export type DashboardRole = "owner" | "developer" | "viewer";

/**
 * Roles (docs/dashboard.md#roles): the owner does everything, the team and the audit log
 * included; a developer manages the integration and money movements (keys, webhooks, currency
 * settings, business details, refunds, cancels); a viewer only reads, and sees no secret.
 */
const GRANTS: Record<DashboardRole, ReadonlySet<DashboardAction>> = {
  owner: new Set<DashboardAction>([
    "refund",
    "cancel",
    "manage_settings",
    "manage_keys",
    "manage_webhooks",
    "manage_users",
    "read_audit",
  ]),
  developer: new Set<DashboardAction>([
    "refund",
    "cancel",
    "manage_settings",
    "manage_keys",
    "manage_webhooks",
  ]),
  viewer: new Set<DashboardAction>(),
};

export function may(role: string, action: DashboardAction): boolean {
  return (GRANTS[role as DashboardRole] ?? GRANTS.viewer).has(action);
}
