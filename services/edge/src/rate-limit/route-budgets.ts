import type { BudgetName } from "@gateway/rate-limiter";

/** docs/api/limits.md#rate-limits: "every /api/v1/gateway/ endpoint" means the paths under this prefix. */
export const GATEWAY_API_PREFIX = "/api/v1/gateway/";

const ACCOUNT_ONLY: readonly BudgetName[] = ["account"];

/**
 * Endpoints with a budget of their own besides the account-wide one (docs/api/limits.md#rate-limits), keyed by
 * method and route pattern with every path parameter written `:`. Keying by pattern, not by a
 * flag on each route, covers routes registered in other files (checkout, refund) as soon as they
 * exist, whatever they name their parameter (`:session_id`, `:id`).
 */
const OWN_BUDGETS: ReadonlyMap<string, readonly BudgetName[]> = new Map([
  ["POST /api/v1/gateway/sessions/", ["account", "create"]],
  ["POST /api/v1/gateway/sessions/:/checkout/", ["account", "create"]],
  ["POST /api/v1/gateway/sessions/:/refund/", ["account", "refund"]],
]);

/**
 * The budgets a request to this route draws on, or undefined when the route is not a gateway
 * endpoint (admin, health, checkout pages: not rate limited per merchant).
 * `routeUrl` is the pattern the router matched (fastify's routeOptions.url), never the raw URL,
 * so ids in the path cannot steer the choice.
 */
export function budgetsForRoute(
  method: string,
  routeUrl: string | undefined,
): readonly BudgetName[] | undefined {
  if (routeUrl === undefined || !routeUrl.startsWith(GATEWAY_API_PREFIX)) return undefined;
  return OWN_BUDGETS.get(`${method.toUpperCase()} ${routePatternShape(routeUrl)}`) ?? ACCOUNT_ONLY;
}

/** `/sessions/:session_id/refund/` -> `/sessions/:/refund/` (a parameter may carry a regexp: `:id(^\\d+)`). */
export function routePatternShape(routeUrl: string): string {
  return routeUrl
    .split("/")
    .map((segment) => (segment.startsWith(":") ? ":" : segment))
    .join("/");
}
