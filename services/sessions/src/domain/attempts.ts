import { newId } from "@gateway/platform";
import { failureMessageFor } from "./failure-messages.js";
import { type AttemptStatus, isPayable, type PaymentAttempt, type Session } from "./session.js";

/**
 * Most attempt records one session keeps. Declines are bounded by max_attempts (at most 10),
 * but abandoned attempts (card page timed out, acquirer unreachable) are not the buyer's tries
 * and do not count; this bound keeps the session document small all the same.
 */
export const MAX_ATTEMPT_RECORDS = 50;

const OPEN: ReadonlySet<AttemptStatus> = new Set(["INITIATED", "PROCESSING"]);

/** INITIATED or PROCESSING: the acquirer may still decide this attempt. */
export function isOpen(attempt: PaymentAttempt): boolean {
  return OPEN.has(attempt.status);
}

/** The attempt still in flight, if any. Attempts run one at a time, so there is at most one. */
export function openAttempt(session: Session): PaymentAttempt | undefined {
  return session.attempts.findLast(isOpen);
}

/** Declined attempts: the buyer's tries that count toward max_attempts. */
export function declinedCount(session: Session): number {
  return session.attempts.filter((a) => a.status === "FAILED").length;
}

/** Whether the buyer may try again after `declines` declines. */
export function canRetry(declines: number, maxAttempts: number): boolean {
  return declines < maxAttempts;
}

/** Tries the buyer has left; 0 once the session can no longer be paid. */
export function attemptsLeft(session: Session): number {
  if (!isPayable(session.status)) return 0;
  return Math.max(0, session.maxAttempts - declinedCount(session));
}

/**
 * The order number the acquirer gets for one attempt. The acquirer refuses a repeated order
 * number, so each attempt has its own: `PG-7KX2QM-2` (at most 13 characters, BPC allows 32).
 */
export function acquirerOrderNumber(orderNumber: string, attemptNumber: number): string {
  return `${orderNumber}-${attemptNumber}`;
}

/** The next attempt of `session`, started from the link `checkoutToken`. */
export function newAttempt(session: Session, checkoutToken: string, now: Date): PaymentAttempt {
  const attemptNumber = (session.attempts.at(-1)?.attemptNumber ?? 0) + 1;
  return {
    id: newId("pa"),
    attemptNumber,
    status: "INITIATED",
    acquirerOrderNumber: acquirerOrderNumber(session.orderNumber, attemptNumber),
    checkoutToken,
    createdAt: now,
  };
}

/** `attempts` with the attempt of the same id replaced by `updated`. */
export function withAttempt(attempts: readonly PaymentAttempt[], updated: PaymentAttempt): PaymentAttempt[] {
  return attempts.map((a) => (a.id === updated.id ? updated : a));
}

/** `attempt` ended without a decision (not one of the buyer's tries), for `failureCode`. */
export function abandonedAttempt(attempt: PaymentAttempt, failureCode: string, now: Date): PaymentAttempt {
  return {
    ...attempt,
    status: "ABANDONED",
    failureCode,
    failureMessage: failureMessageFor(failureCode),
    settledAt: now,
  };
}
