import type { RateLimit } from "./rate-limit-policy.js";

/** What one GCRA budget says about one request at time `now` (all times in ms). */
export interface GcraOutcome {
  allowed: boolean;
  /** The TAT to store when the request is admitted; the current TAT when it is denied. */
  newTat: number;
  /** Requests that could still be sent at once after this one (0 when denied). */
  remaining: number;
  /** Until the bucket is full again (TAT reached), whole ms rounded up. */
  resetMs: number;
  /** Until a request would be admitted, whole ms rounded up; 0 when allowed. */
  retryAfterMs: number;
}

// floor() of a ratio of floats that should be an integer (e.g. (burst-1)*T/T) can land just below it.
const EPSILON = 1e-9;

/**
 * The Generic Cell Rate Algorithm, virtual scheduling form. The state is one number, the
 * theoretical arrival time (TAT); no state means an idle budget (full bucket).
 * A request at `now` is admitted when now >= TAT - tau, and then TAT := max(TAT, now) + T.
 * retryAfterMs is rounded up to whole ms, so "now + retryAfterMs" is admitted and one ms less is not.
 */
export function evaluateGcra(limit: RateLimit, storedTat: number | undefined, now: number): GcraOutcome {
  const emission = 1000 / limit.ratePerSec;
  const tolerance = (limit.burst - 1) * emission;
  const tat = Math.max(storedTat ?? now, now);
  const allowAt = tat - tolerance;
  if (now < allowAt) {
    return {
      allowed: false,
      newTat: tat,
      remaining: 0,
      resetMs: Math.ceil(tat - now),
      retryAfterMs: Math.ceil(allowAt - now),
    };
  }
  const newTat = tat + emission;
  const remaining = Math.max(0, Math.floor((now + tolerance - tat) / emission + EPSILON));
  return { allowed: true, newTat, remaining, resetMs: Math.ceil(newTat - now), retryAfterMs: 0 };
}

/** Records an admission without asking (the replica-local mirror of store-admitted requests). */
export function consumeGcra(limit: RateLimit, storedTat: number | undefined, now: number): number {
  return Math.max(storedTat ?? now, now) + 1000 / limit.ratePerSec;
}

/** The TAT after giving one admitted request back (its emission interval), used to undo a partial consume. */
export function refundGcra(limit: RateLimit, storedTat: number): number {
  return storedTat - 1000 / limit.ratePerSec;
}
