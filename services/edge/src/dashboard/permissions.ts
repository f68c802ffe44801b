/** What a dashboard user may change; reading is open to every role of the merchant. */
export type DashboardAction = "refund" | "cancel" | "manage_settings" | "manage_users";

export type DashboardRole = "owner" | "developer" | "viewer";

/**
 * Roles (docs/dashboard.md#roles): the owner does everything; a developer manages the
 * integration and money movements (keys, webhooks, currency settings, refunds, cancels) but not
 * the team; a viewer only reads.
 */
const GRANTS: Record<DashboardRole, ReadonlySet<DashboardAction>> = {
  owner: new Set<DashboardAction>(["refund", "cancel", "manage_settings", "manage_users"]),
  developer: new Set<DashboardAction>(["refund", "cancel", "manage_settings"]),
  viewer: new Set<DashboardAction>(),
};

export function may(role: string, action: DashboardAction): boolean {
  return (GRANTS[role as DashboardRole] ?? GRANTS.viewer).has(action);
}
