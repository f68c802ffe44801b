import { GatewayError } from "@gateway/platform";
import { type BudgetName, type Decision, type RateLimiter, rateLimitHeaders } from "@gateway/rate-limiter";
import type { FastifyInstance } from "fastify";
import { requireCaller } from "../auth/authenticated-caller.js";
import { recordRateLimitDecision } from "./rate-limit-metrics.js";
import { budgetsForRoute } from "./route-budgets.js";

const BUDGET_LABELS: Record<BudgetName, string> = {
  account: "account-wide",
  create: "create",
  refund: "refund",
};

/**
 * docs/api/limits.md#rate-limits on every gateway endpoint of `api`. Must be installed in the scope that
 * authenticates, AFTER its API key hook: the budgets are the caller's merchant account and mode,
 * so a request without a valid key is refused (401) before it can spend anyone's budget.
 * It runs as an onRequest hook, before the body is read, so a refused request costs no parsing.
 *
 * Every answer of a limited route carries the RateLimit-* headers (2xx and errors alike); a
 * refused request becomes a 429 rate-limit-exceeded problem with Retry-After.
 */
export function installRateLimiting(api: FastifyInstance, limiter: RateLimiter): void {
  api.addHook("onRequest", async (request, reply) => {
    const budgets = budgetsForRoute(request.method, request.routeOptions.url);
    if (budgets === undefined) return;
    const { scope } = requireCaller(request);
    const decision = await limiter.check({
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      budgets: [...budgets],
    });
    recordRateLimitDecision(decision, scope.livemode);
    const headers = rateLimitHeaders(decision);
    reply.headers(headers);
    if (!decision.allowed) throw rateLimitExceeded(decision, scope.livemode, headers["Retry-After"] ?? "1");
  });
}

function rateLimitExceeded(decision: Decision, livemode: boolean, retryAfterSeconds: string): GatewayError {
  const windowSeconds = (decision.windowMs ?? 1000) / 1000;
  const per = windowSeconds === 1 ? "per second" : `per ${windowSeconds} seconds`;
  return new GatewayError(
    "RATE_LIMIT_EXCEEDED",
    `Too many requests: the ${BUDGET_LABELS[decision.budget]} limit of this account's ${livemode ? "live" : "test"} keys ` +
      `allows ${decision.limit} ${per}. Retry after ${retryAfterSeconds} s.`,
    // The problem mapper turns this into the Retry-After header; the same value as rateLimitHeaders'.
    { metadata: { retry_after_seconds: retryAfterSeconds, budget: decision.budget } },
  );
}
