import { isOpen } from "./attempts.js";
import { type CheckoutLink, isPayable, type PaymentAttempt, type Session } from "./session.js";

/**
 * The sweeper's schedule, kept on the session so that due work is found with indexed queries:
 * the session's own expiry (`expiresAt` while payable), the announcement of its current link's
 * expiry (`linkExpiryDueAt`) and reconciliation with the acquirer (`reconcileAt`).
 */

/** Every moment the sweeper has work on `session`, in epoch ms: none when it has none. */
export function sweepDueTimes(session: Session): number[] {
  const times: number[] = [];
  if (session.linkExpiryDueAt) times.push(session.linkExpiryDueAt.getTime());
  if (session.reconcileAt) times.push(session.reconcileAt.getTime());
  if (isPayable(session.status)) times.push(session.expiresAt.getTime());
  return times;
}

/** The earliest moment the sweeper has work on `session`, in epoch ms; undefined when none. */
export function sweepDueAt(session: Session): number | undefined {
  const times = sweepDueTimes(session);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/**
 * When the expiry of `link`, just minted as the session's current link, is to be announced:
 * its own expiry, unless it lasts as long as the session (then session.expired says it all).
 */
export function linkExpiryDueAtFor(link: CheckoutLink, sessionExpiresAt: Date): Date | null {
  return link.expiresAt.getTime() < sessionExpiresAt.getTime() ? link.expiresAt : null;
}

/** A payment the acquirer took that the session does not keep, not given back yet. */
export function isUnreturnedLatePayment(attempt: PaymentAttempt): boolean {
  return attempt.duplicatePayment === true && attempt.returnedAt === undefined;
}

/** Whether anything on `session` still needs the acquirer: an attempt in flight or money to give back. */
export function needsReconciliation(session: Session): boolean {
  return session.attempts.some((a) => isOpen(a) || isUnreturnedLatePayment(a));
}

/** The next reconciliation of `session` after a look at `now`: in one interval, or never. */
export function nextReconcileAt(session: Session, now: Date, intervalMs: number): Date | null {
  return needsReconciliation(session) ? new Date(now.getTime() + intervalMs) : null;
}
