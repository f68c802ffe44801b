import type { Logger } from "@gateway/platform";

export type StoreRoute = "store" | "probe" | "bypass";

export interface StoreHealthOptions {
  /** After a failure, decisions skip the store this long before one request probes it again. */
  retryIntervalMs: number;
  /** At most one warning per this interval while degraded (10 s). */
  warnIntervalMs: number;
  logger?: Logger;
}

/**
 * Circuit breaker over the shared store, on the limiter's clock. Healthy: every check uses the
 * store. After a failure: checks bypass it (and are decided locally) for retryIntervalMs, then a
 * single check probes it while the others keep bypassing; the probe's outcome closes or re-opens
 * the breaker. So a dead store costs one timeout per interval, not one per request.
 * Warnings are throttled to one per warnIntervalMs and count the local decisions since the last.
 */
export class StoreHealth {
  private failingSince: number | undefined;
  private retryAt = 0;
  private probing = false;
  private lastWarnAt: number | undefined;
  private degradedSinceWarn = 0;
  private degradedSinceFailure = 0;

  constructor(private readonly options: StoreHealthOptions) {}

  get isDegraded(): boolean {
    return this.failingSince !== undefined;
  }

  route(now: number): StoreRoute {
    if (this.failingSince === undefined) return "store";
    if (now < this.retryAt || this.probing) return "bypass";
    this.probing = true;
    return "probe";
  }

  succeeded(now: number, route: StoreRoute): void {
    // Only a probe closes the breaker: a check that started before a failure and finished after
    // it says little about the store now, and would make the state flap.
    if (route !== "probe") return;
    this.probing = false;
    if (this.failingSince === undefined) return;
    this.options.logger?.info(
      { degradedForMs: now - this.failingSince, localDecisions: this.degradedSinceFailure },
      "rate limit store reachable again; limits are shared across replicas again",
    );
    this.failingSince = undefined;
    this.degradedSinceFailure = 0;
  }

  failed(now: number, route: StoreRoute, err: unknown): void {
    if (route === "probe") this.probing = false;
    this.failingSince ??= now;
    this.retryAt = now + this.options.retryIntervalMs;
    this.warn(
      now,
      err,
      "rate limit store unavailable; deciding on this replica's local limiter (limits hold per replica)",
    );
  }

  /** Counts a decision made without the store. */
  countLocalDecision(): void {
    this.degradedSinceWarn++;
    this.degradedSinceFailure++;
  }

  /** Warns, at most once per warnIntervalMs (shared by every kind of degradation). */
  warn(now: number, err: unknown, message: string): void {
    if (this.lastWarnAt !== undefined && now - this.lastWarnAt < this.options.warnIntervalMs) return;
    this.lastWarnAt = now;
    this.options.logger?.warn({ err, localDecisionsSinceLastWarning: this.degradedSinceWarn }, message);
    this.degradedSinceWarn = 0;
  }
}
