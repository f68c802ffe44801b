import type { GcraOutcome } from "./gcra.js";
import { type BudgetName, burstWindowMs, type RateLimit } from "./rate-limit-policy.js";

/** The answer for one request, reported against the budget that decided it. */
export interface Decision {
  allowed: boolean;
  /** The deciding budget's burst: requests that may be sent at once from idle (= its per-second rate by default). */
  limit: number;
  remaining: number;
  /** Until the deciding budget is full again, ms. */
  resetMs: number;
  /** 0 when allowed; otherwise ms until the same request would be admitted (if nothing else is sent meanwhile). */
  retryAfterMs: number;
  /** The most restrictive denial, or the budget with the fewest remaining requests when allowed. */
  budget: BudgetName;
  /** Burst window of the deciding budget (burst x T, ms): the `w` of RateLimit-Policy. Absent = 1 s. */
  windowMs?: number;
  /**
   * True when the shared store could not decide (unreachable, too slow, or too contended) and the
   * decision came from this replica's local limiter, so limits held per replica only.
   */
  degraded?: boolean;
}

/** One budget of a request, resolved against the policy. */
export interface ResolvedBudget {
  name: BudgetName;
  limit: RateLimit;
  /** Key of its state in the GCRA store. */
  key: string;
}

/**
 * Folds per-budget outcomes into one decision: denied if any budget denies, reporting the
 * longest wait (so Retry-After covers every denying budget); otherwise reported against the
 * budget with the fewest remaining requests (ties: the one taking longest to refill).
 */
export function combineOutcomes(
  budgets: readonly ResolvedBudget[],
  outcomes: readonly GcraOutcome[],
  degraded: boolean,
): Decision {
  let pick = -1;
  const anyDenied = outcomes.some((o) => !o.allowed);
  outcomes.forEach((outcome, i) => {
    if (anyDenied && outcome.allowed) return;
    if (pick < 0) {
      pick = i;
      return;
    }
    const best = outcomes[pick] as GcraOutcome;
    const better = anyDenied
      ? outcome.retryAfterMs > best.retryAfterMs ||
        (outcome.retryAfterMs === best.retryAfterMs && outcome.resetMs > best.resetMs)
      : outcome.remaining < best.remaining ||
        (outcome.remaining === best.remaining && outcome.resetMs > best.resetMs);
    if (better) pick = i;
  });
  const budget = budgets[pick];
  const outcome = outcomes[pick];
  if (budget === undefined || outcome === undefined)
    throw new Error("combineOutcomes needs at least one budget");
  return {
    allowed: !anyDenied,
    limit: budget.limit.burst,
    remaining: outcome.remaining,
    resetMs: outcome.resetMs,
    retryAfterMs: outcome.retryAfterMs,
    budget: budget.name,
    windowMs: burstWindowMs(budget.limit),
    degraded,
  };
}
