import type { Delivery } from "./delivery.js";

/** The longest wait a receiver's Retry-After can impose beyond our own schedule. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface AttemptFailure {
  /** The receiver answered 410 Gone: the endpoint no longer exists. */
  gone: boolean;
  /** The receiver's Retry-After, in ms from its answer. */
  retryAfterMs?: number;
}

export type RetryPlan =
  | { retry: true; at: Date; delayMs: number }
  | { retry: false; reason: "exhausted" | "gone" | "resend" };

/**
 * When a failed attempt is tried again. `scheduleMs[i]` is the wait after the failure of chain
 * attempt i+1 (default 1 min, 2 h, 24 h: three retries, docs/api/webhooks.md). A Retry-After asking for
 * longer is honoured, up to MAX_RETRY_AFTER_MS (a shorter one never makes us retry sooner).
 * 410 Gone ends the chain, and a resend is a single attempt.
 */
export function planRetry(
  attempt: Pick<Delivery, "chainAttempt" | "trigger">,
  failure: AttemptFailure,
  scheduleMs: readonly number[],
  failedAt: Date,
): RetryPlan {
  if (failure.gone) return { retry: false, reason: "gone" };
  if (attempt.trigger === "resend") return { retry: false, reason: "resend" };
  const scheduled = scheduleMs[attempt.chainAttempt - 1];
  if (scheduled === undefined) return { retry: false, reason: "exhausted" };
  const asked = failure.retryAfterMs === undefined ? 0 : Math.min(failure.retryAfterMs, MAX_RETRY_AFTER_MS);
  const delayMs = Math.max(scheduled, asked);
  return { retry: true, at: new Date(failedAt.getTime() + delayMs), delayMs };
}

/** Checks a configured schedule: every wait a whole, non-negative number of milliseconds. */
export function assertRetrySchedule(scheduleMs: readonly number[]): void {
  for (const ms of scheduleMs) {
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new RangeError(`retry waits must be whole milliseconds, got ${ms}`);
  }
}
