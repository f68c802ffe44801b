import { type Clock, GatewayError, type Logger } from "@gateway/platform";
import { combineOutcomes, type Decision, type ResolvedBudget } from "./decision.js";
import { evaluateGcra } from "./gcra.js";
import type { GcraStore } from "./gcra-store.js";
import { KeyedMutex } from "./keyed-mutex.js";
import { LocalGcraLimiter } from "./local-gcra-limiter.js";
import { rateLimitKey } from "./rate-limit-key.js";
import {
  BUDGET_NAMES,
  type BudgetName,
  type RateLimitPolicy,
  validateRateLimitPolicy,
} from "./rate-limit-policy.js";
import { CheckAbandonedError, SharedBudgetConsumer } from "./shared-budget-consumer.js";
import { StoreHealth, type StoreRoute } from "./store-health.js";
import { TatTable } from "./tat-table.js";

export interface RateLimitCheck {
  merchantId: string;
  livemode: boolean;
  /** Budgets this request draws on: ["account"], or ["account", "create"], or ["account", "refund"]. */
  budgets: BudgetName[];
}

export interface RateLimiter {
  /** Checks all given budgets for one request; consumes from all of them only if all allow. */
  check(o: RateLimitCheck): Promise<Decision>;
  /** Waits for checks in flight; later checks throw. Does not close the store's connection. */
  close(): Promise<void>;
}

export interface GcraRateLimiterOptions {
  store: GcraStore;
  policy: RateLimitPolicy;
  clock: Clock;
  /**
   * When the store cannot decide (unreachable, slower than storeTimeoutMs):
   * - "fail-open" (default): decided by this replica's local limiter (localFallback) with
   *   `degraded: true`; the gateway stays available and limits hold per replica;
   * - "fail-closed": check() throws GatewayError SERVICE_UNAVAILABLE (503, retryable).
   */
  onStoreError?: "fail-open" | "fail-closed";
  /** Warnings (at most one per 10 s while degraded) and recovery notices. */
  logger?: Logger;
  /** Fail-open with the local per-replica limiter (default true); false admits every request while degraded. */
  localFallback?: boolean;
  /** How long one check may wait for the store (and for this merchant's earlier checks) before deciding locally. Default 250 ms. */
  storeTimeoutMs?: number;
  /** After a store failure, checks skip the store this long before one probes it again. Default 1000 ms. */
  storeRetryIntervalMs?: number;
  /** Compare-and-set attempts per key under contention, after which the request is denied. Default 8. */
  maxConflictAttempts?: number;
}

const DEFAULT_STORE_TIMEOUT_MS = 250;
const DEFAULT_STORE_RETRY_INTERVAL_MS = 1_000;
const DEFAULT_MAX_CONFLICT_ATTEMPTS = 8;
const WARN_INTERVAL_MS = 10_000;
const TIMED_OUT = Symbol("timed out");

/**
 * Rate limiter over a shared GCRA store (docs/api/limits.md#rate-limits), for every edge replica at once.
 *
 * Per replica, the checks of one merchant and mode run one at a time (KeyedMutex), so CAS
 * conflicts only come from other replicas. The last TAT seen per key is kept: while it says
 * "deny", a request is denied without a round trip (TATs only grow, except by a give-back of
 * one interval, so a denial from a slightly old TAT stays right; its Retry-After may be short,
 * never long). That keeps a merchant flooding the API from costing store traffic.
 *
 * Store trouble (see onStoreError): a store error or a check slower than storeTimeoutMs opens a
 * breaker (StoreHealth) and the request is decided locally; during storeRetryIntervalMs the
 * store is skipped, then one check probes it. Local decisions carry `degraded: true`.
 */
export function createGcraRateLimiter(o: GcraRateLimiterOptions): RateLimiter {
  validateRateLimitPolicy(o.policy);
  return new GcraRateLimiter(o);
}

class GcraRateLimiter implements RateLimiter {
  private readonly policy: RateLimitPolicy;
  private readonly clock: Clock;
  private readonly failClosed: boolean;
  private readonly localFallback: boolean;
  private readonly storeTimeoutMs: number;
  private readonly mutex = new KeyedMutex();
  private readonly seen = new TatTable();
  private readonly local = new LocalGcraLimiter();
  private readonly health: StoreHealth;
  private readonly consumer: SharedBudgetConsumer;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(o: GcraRateLimiterOptions) {
    this.policy = structuredClone(o.policy);
    this.clock = o.clock;
    this.failClosed = o.onStoreError === "fail-closed";
    this.localFallback = o.localFallback ?? true;
    this.storeTimeoutMs = positive(o.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS, "storeTimeoutMs");
    this.health = new StoreHealth({
      retryIntervalMs: positive(
        o.storeRetryIntervalMs ?? DEFAULT_STORE_RETRY_INTERVAL_MS,
        "storeRetryIntervalMs",
      ),
      warnIntervalMs: WARN_INTERVAL_MS,
      logger: o.logger,
    });
    this.consumer = new SharedBudgetConsumer({
      store: o.store,
      clock: o.clock,
      seen: this.seen,
      maxAttempts: positive(o.maxConflictAttempts ?? DEFAULT_MAX_CONFLICT_ATTEMPTS, "maxConflictAttempts"),
      onContention: (key, attempts) =>
        this.health.warn(
          this.now(),
          undefined,
          `rate limit: ${attempts} compare-and-set conflicts in a row on ${key}; request denied as contended`,
        ),
      onGiveBackFailure: (key, err) =>
        this.health.warn(
          this.now(),
          err,
          `rate limit: could not give back a request on ${key}; that budget stays charged for it`,
        ),
    });
  }

  check(o: RateLimitCheck): Promise<Decision> {
    if (this.closed) return Promise.reject(new Error("rate limiter is closed"));
    let budgets: ResolvedBudget[];
    try {
      budgets = this.resolve(o);
    } catch (err) {
      return Promise.reject(err);
    }
    const pending = this.decide(budgets, `${o.livemode ? "live" : "test"}:${o.merchantId}`);
    this.inFlight.add(pending);
    const done = (): void => {
      this.inFlight.delete(pending);
    };
    pending.then(done, done);
    return pending;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
  }

  private async decide(budgets: ResolvedBudget[], lockKey: string): Promise<Decision> {
    const abandon = new AbortController();
    const attempt: { route?: StoreRoute } = {};
    const work = this.mutex.run(lockKey, () => this.decideShared(budgets, abandon.signal, attempt));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(resolve, this.storeTimeoutMs, TIMED_OUT);
    });
    try {
      const result = await Promise.race([work, timeout]);
      if (result !== TIMED_OUT) return result;
      abandon.abort();
      work.catch(() => undefined);
      if (attempt.route === undefined) {
        // Still queued behind this merchant's earlier checks: the store is slow, not known to be down.
        return this.decideLocally(
          budgets,
          new Error(`queued longer than ${this.storeTimeoutMs} ms behind earlier checks`),
          "busy",
        );
      }
      return this.storeFailed(
        budgets,
        attempt.route,
        new Error(`rate limit store did not answer within ${this.storeTimeoutMs} ms`),
      );
    } catch (err) {
      if (err instanceof StoreBypassed) return this.decideLocally(budgets, undefined, "bypass");
      return this.storeFailed(budgets, attempt.route ?? "store", err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs under the merchant's lock. */
  private async decideShared(
    budgets: ResolvedBudget[],
    signal: AbortSignal,
    attempt: { route?: StoreRoute },
  ): Promise<Decision> {
    if (signal.aborted) throw new CheckAbandonedError("check abandoned while queued");
    const now = this.now();
    const cachedDenial = this.denialFromSeenState(budgets, now);
    if (cachedDenial !== undefined) return cachedDenial;
    const route = this.health.route(now);
    if (route === "bypass") throw new StoreBypassed();
    attempt.route = route;
    const decision = await this.consumer.consume(budgets, now, signal);
    if (signal.aborted) {
      // Answered locally meanwhile: the store must not also keep this request.
      if (decision.allowed) void this.consumer.giveBack(budgets);
      return decision;
    }
    this.health.succeeded(this.now(), route);
    if (decision.allowed) this.local.record(budgets, now);
    return decision;
  }

  private denialFromSeenState(budgets: ResolvedBudget[], now: number): Decision | undefined {
    const outcomes = budgets.map((b) => evaluateGcra(b.limit, this.seen.get(b.key, now), now));
    return outcomes.some((o) => !o.allowed) ? combineOutcomes(budgets, outcomes, false) : undefined;
  }

  private storeFailed(budgets: ResolvedBudget[], route: StoreRoute, err: unknown): Decision {
    this.health.failed(this.now(), route, err);
    return this.decideLocally(budgets, err, "store failure");
  }

  private decideLocally(
    budgets: ResolvedBudget[],
    err: unknown,
    why: "bypass" | "busy" | "store failure",
  ): Decision {
    const now = this.now();
    if (this.failClosed) {
      throw new GatewayError(
        "SERVICE_UNAVAILABLE",
        "Rate limiting is temporarily unavailable; retry shortly.",
        { cause: err ?? why },
      );
    }
    this.health.countLocalDecision();
    if (why === "busy")
      this.health.warn(
        now,
        err,
        "rate limit: checks of one merchant queued too long; decided on this replica's local limiter",
      );
    if (!this.localFallback) {
      // Every budget evaluated as idle: admitted, reporting the full burst.
      return combineOutcomes(
        budgets,
        budgets.map((b) => evaluateGcra(b.limit, undefined, now)),
        true,
      );
    }
    return this.local.decide(budgets, now);
  }

  private resolve(o: RateLimitCheck): ResolvedBudget[] {
    if (o === null || typeof o !== "object")
      throw new TypeError("rate limiter: check() needs { merchantId, livemode, budgets }");
    if (typeof o.livemode !== "boolean") throw new TypeError("rate limiter: livemode must be a boolean");
    if (!Array.isArray(o.budgets) || o.budgets.length === 0)
      throw new TypeError("rate limiter: budgets must name at least one budget");
    for (const name of o.budgets) {
      if (!BUDGET_NAMES.includes(name)) {
        throw new TypeError(
          `rate limiter: unknown budget "${String(name)}" (budgets: ${BUDGET_NAMES.join(", ")})`,
        );
      }
    }
    const mode = o.livemode ? "live" : "test";
    // Canonical order and no duplicates: the write order of shared-budget-consumer.ts relies on it.
    return BUDGET_NAMES.filter((name) => o.budgets.includes(name)).map((name) => ({
      name,
      limit: this.policy[mode][name],
      key: rateLimitKey(name, o.merchantId, o.livemode),
    }));
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

/** The breaker is open: decide locally without touching the store. */
class StoreBypassed extends Error {
  override readonly name = "StoreBypassed";
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`rate limiter: ${name} must be a positive number, got ${value}`);
  return value;
}
