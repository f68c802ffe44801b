import { isLinkExpired, isPastLifetime } from "./checkout-state.js";
import { isPayable, type Session, type SessionChanges, type SessionStatus, withChanges } from "./session.js";
import {
  expiredEvent,
  type LatePaymentReason,
  linkExpiredEvent,
  type SessionEvent,
} from "./session-events.js";
import { decide } from "./session-state-machine.js";
import { linkExpiryDueAtFor, nextReconcileAt } from "./sweep-schedule.js";

export interface LifetimeStep {
  changes: SessionChanges;
  events: SessionEvent[];
}

/**
 * What time does to `session` at `now`, once its attempts have been reconciled: the
 * announcement of its current link's expiry (checkout.session.expired) when the link ran out
 * before the session did, the session's own expiry (EXPIRED and session.expired), and the next
 * reconciliation when this look was one. undefined when nothing changes. Pure: the sweeper
 * stores the step with a compare-and-set.
 */
export function lifetimeStep(
  session: Session,
  now: Date,
  reconcileIntervalMs: number,
): LifetimeStep | undefined {
  const changes: SessionChanges = {};
  const events: SessionEvent[] = [];
  const linkDue = session.linkExpiryDueAt !== undefined && session.linkExpiryDueAt.getTime() <= now.getTime();
  const current = isPayable(session.status) ? session.checkoutLinks.at(-1) : undefined;
  if (linkDue) {
    if (
      current !== undefined &&
      isLinkExpired(current, now) &&
      current.expiresAt.getTime() < session.expiresAt.getTime()
    ) {
      // The link ran out while the session was payable: announced, even when the sweep comes
      // so late that the session's own lifetime is over too (then both events, in that order).
      events.push(linkExpiredEvent(session, current.token, now));
      changes.linkExpiryDueAt = null;
    } else {
      // Closed meanwhile (nothing to announce), or a fresh link came: its own expiry is next.
      changes.linkExpiryDueAt = current !== undefined ? linkExpiryDueAtFor(current, session.expiresAt) : null;
    }
  }
  if (isPayable(session.status) && isPastLifetime(session, now)) {
    const decision = decide(session, "expire", now);
    if (decision.changed) Object.assign(changes, decision.changes);
    const before = { ...session, lastEventSequence: session.lastEventSequence + events.length };
    events.push(expiredEvent(withChanges(before, changes), now));
    // session.expired closes every link: nothing is left to announce.
    if (session.linkExpiryDueAt !== undefined) changes.linkExpiryDueAt = null;
  }
  if (session.reconcileAt !== undefined && session.reconcileAt.getTime() <= now.getTime()) {
    changes.reconcileAt = nextReconcileAt(session, now, reconcileIntervalMs);
  }
  // Every event comes with a change (a cleared schedule, a new status): no change, no step.
  if (Object.keys(changes).length === 0) return undefined;
  return { changes: { ...changes, updatedAt: now }, events };
}

/** Why a session in `status` could not keep a payment approved on it. */
export function latePaymentReason(status: SessionStatus): LatePaymentReason {
  switch (status) {
    case "EXPIRED":
      return "session_expired";
    case "CANCELED":
      return "session_canceled";
    case "FAILED":
      return "session_failed";
    default:
      // SUCCEEDED: another attempt paid first. (A payable session takes the payment instead.)
      return "already_paid";
  }
}
