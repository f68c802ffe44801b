/** The budgets of docs/api/limits.md#rate-limits. Every request draws on "account"; create and refund calls also on their own. */
export type BudgetName = "account" | "create" | "refund";

/** Canonical order: budgets of one request are always written in this order (see shared-budget-consumer.ts). */
export const BUDGET_NAMES: readonly BudgetName[] = ["account", "create", "refund"];

/**
 * One GCRA limit: a sustained rate and how many requests may arrive at once.
 * Emission interval T = 1000 / ratePerSec ms; tolerance tau = (burst - 1) * T.
 */
export interface RateLimit {
  ratePerSec: number;
  burst: number;
}

/** Limits per key mode: live and test keys of an account have separate budgets. */
export interface RateLimitPolicy {
  live: Record<BudgetName, RateLimit>;
  test: Record<BudgetName, RateLimit>;
}

/**
 * docs/api/limits.md#rate-limits. The product states rates per second only; we let a client spend a full second's
 * worth at once (burst = rate), so an idle merchant may send `rate` requests back to back and
 * is then paced at the rate. "At most N requests in any one second" is what merchants read
 * into "N req/s", and this is exactly that bound for a request stream starting idle.
 */
export const defaultRateLimitPolicy: RateLimitPolicy = {
  live: {
    account: { ratePerSec: 25, burst: 25 },
    create: { ratePerSec: 10, burst: 10 },
    refund: { ratePerSec: 5, burst: 5 },
  },
  test: {
    account: { ratePerSec: 10, burst: 10 },
    create: { ratePerSec: 5, burst: 5 },
    refund: { ratePerSec: 2, burst: 2 },
  },
};

/**
 * The longest burst window (burst x T) a limit may have. The NATS KV bucket expires idle keys
 * after its TTL, which must outlast any window, so the two are tied (see nats-kv-gcra-store.ts).
 */
export const MAX_BURST_WINDOW_MS = 60_000;

/** Time for an empty bucket to fill up completely: burst x T. */
export function burstWindowMs(limit: RateLimit): number {
  return (limit.burst * 1000) / limit.ratePerSec;
}

/** Throws a clear error naming the first invalid limit; `source` says where the policy came from. */
export function validateRateLimitPolicy(policy: RateLimitPolicy, source = "rate limit policy"): void {
  for (const mode of ["live", "test"] as const) {
    for (const budget of BUDGET_NAMES) {
      const limit = policy[mode]?.[budget];
      const name = `${mode}.${budget}`;
      if (limit === undefined) throw new Error(`${source}: ${name} is missing`);
      if (!Number.isFinite(limit.ratePerSec) || limit.ratePerSec <= 0) {
        throw new Error(
          `${source}: ${name} rate must be a positive number of requests per second, got ${limit.ratePerSec}`,
        );
      }
      if (!Number.isInteger(limit.burst) || limit.burst < 1) {
        throw new Error(
          `${source}: ${name} burst must be a whole number of requests >= 1, got ${limit.burst}`,
        );
      }
      if (burstWindowMs(limit) > MAX_BURST_WINDOW_MS) {
        throw new Error(
          `${source}: ${name} burst ${limit.burst} at ${limit.ratePerSec}/s takes ${burstWindowMs(limit) / 1000} s to refill; ` +
            `at most ${MAX_BURST_WINDOW_MS / 1000} s is supported`,
        );
      }
    }
  }
}
