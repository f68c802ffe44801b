import { abandonedAttempt, openAttempt, withAttempt } from "../domain/attempts.js";
import { isPastLifetime } from "../domain/checkout-state.js";
import { latePaymentReason, lifetimeStep } from "../domain/lifetimes.js";
import {
  isPayable,
  type LatePaymentReturnMethod,
  type PaymentAttempt,
  type Session,
  type SessionChanges,
} from "../domain/session.js";
import { latePaymentReturnedEvent } from "../domain/session-events.js";
import { outcomeOf, statusChanges } from "../domain/session-state-machine.js";
import { isUnreturnedLatePayment } from "../domain/sweep-schedule.js";
import { giveBackAtAcquirer } from "./give-back-late-payment.js";
import { type PaymentDeps, registrationDeadline } from "./payment-deps.js";
import type { SweepObserver } from "./ports.js";
import { settleOpenAttempt } from "./settle-attempt.js";
import { type DecidedChange, storeDecidedChange } from "./store-change.js";

/**
 * Everything time has done to one session, in order: its attempt in flight is reconciled with
 * the acquirer (when due, and always when the session's lifetime has ended, so an approval
 * that made it in time makes the session SUCCEEDED rather than EXPIRED); late payments are
 * given back; then the session expires, or its link's expiry is announced, and the next
 * reconciliation is scheduled. The caller holds the session's sweep claim. Every write is a
 * compare-and-set and every event id is derived from its fact, so repeating a sweep after a
 * crash changes nothing twice and emits nothing twice.
 */
export async function sweepSession(
  deps: PaymentDeps,
  session: Session,
  observer: SweepObserver = SILENT,
): Promise<Session> {
  const now = deps.clock.now();
  const reconcileDue = session.reconcileAt !== undefined && session.reconcileAt.getTime() <= now.getTime();
  const expiring = isPayable(session.status) && isPastLifetime(session, now);
  let current = session;
  if (reconcileDue || expiring) current = await reconcileOpenAttempt(deps, current);
  if (reconcileDue) current = await giveBackLatePayments(deps, current, observer);
  return applyLifetimeStep(deps, current, observer);
}

const SILENT: SweepObserver = { sessionSwept() {}, eventStored() {}, latePaymentReturn() {} };

/** Asks the acquirer about the attempt in flight; an acquirer that cannot answer is tried again next time. */
async function reconcileOpenAttempt(deps: PaymentDeps, session: Session): Promise<Session> {
  const open = openAttempt(session);
  if (!open) return session;
  if (open.status === "INITIATED") return abandonIfInterrupted(deps, session, open);
  if (open.acquirerOrderId === undefined) return session;
  try {
    return (await settleOpenAttempt(deps, session, open.acquirerOrderId, "reconciler")).session;
  } catch (err) {
    deps.logger.warn(
      { err, sessionId: session.id, attemptId: open.id },
      "could not reconcile a payment attempt with the acquirer; will try again",
    );
    return (await deps.repo.findById(session.scope, session.id)) ?? session;
  }
}

/**
 * An attempt still INITIATED past its registration deadline was interrupted (its process died
 * before the order was registered, or before the buyer got the card page): nobody can pay it.
 */
async function abandonIfInterrupted(
  deps: PaymentDeps,
  session: Session,
  attempt: PaymentAttempt,
): Promise<Session> {
  const now = deps.clock.now();
  if (now.getTime() <= registrationDeadline(attempt.createdAt, deps.acquirerTimeoutMs).getTime())
    return session;
  const rule = outcomeOf(session, "attemptAbandoned");
  const changes: SessionChanges = {
    ...(rule.kind === "move" ? statusChanges(rule.to, now) : { updatedAt: now }),
    attempts: withAttempt(session.attempts, abandonedAttempt(attempt, "start_interrupted", now)),
  };
  const result = await deps.repo.updateIf(session, changes);
  if (result.updated)
    deps.logger.warn(
      { sessionId: session.id, attemptId: attempt.id },
      "abandoned a payment attempt whose start was interrupted",
    );
  return result.updated ? result.session : (result.current ?? session);
}

/** Gives back every approved payment the session does not keep, each with its event. */
async function giveBackLatePayments(
  deps: PaymentDeps,
  session: Session,
  observer: SweepObserver,
): Promise<Session> {
  let current = session;
  for (const attempt of session.attempts.filter(isUnreturnedLatePayment)) {
    let method: LatePaymentReturnMethod;
    try {
      const terminal = await deps.terminals.terminalFor(current.scope);
      method = await giveBackAtAcquirer(deps.acquirer, terminal, attempt, current.amountMinor);
    } catch (err) {
      // Money the merchant must not keep is still taken: loud, and tried again next time.
      deps.logger.error(
        { err, sessionId: current.id, attemptId: attempt.id },
        "could not give a late payment back at the acquirer; will try again",
      );
      observer.latePaymentReturn("failed");
      continue;
    }
    observer.latePaymentReturn("returned");
    const recorded = await storeDecidedChange(deps, current, (s) =>
      givenBackChange(s, attempt.id, method, deps.clock.now()),
    );
    if (recorded.stored) {
      deps.logger.info(
        { sessionId: current.id, attemptId: attempt.id, method },
        "late payment given back at the acquirer",
      );
      observer.eventStored("session.late_payment_returned");
    }
    current = recorded.session;
  }
  return current;
}

/** The attempt marked given back, with session.late_payment_returned; undefined once it is. */
function givenBackChange(
  session: Session,
  attemptId: string,
  method: LatePaymentReturnMethod,
  now: Date,
): DecidedChange | undefined {
  const attempt = session.attempts.find((a) => a.id === attemptId);
  if (!attempt || !isUnreturnedLatePayment(attempt)) return undefined;
  const returned: PaymentAttempt = { ...attempt, returnedAt: now, returnMethod: method };
  const event = latePaymentReturnedEvent(
    session,
    {
      attemptId,
      amountMinor: session.amountMinor,
      cardBrand: attempt.cardBrand ?? "",
      cardLastFour: attempt.cardLastFour ?? "",
      approvedAt: attempt.settledAt ?? now,
      returnedAt: now,
      method,
      reason: latePaymentReason(session.status),
    },
    now,
  );
  return { changes: { attempts: withAttempt(session.attempts, returned), updatedAt: now }, events: [event] };
}

/** Expiry, link announcement and the next reconciliation, stored together with their events. */
async function applyLifetimeStep(
  deps: PaymentDeps,
  session: Session,
  observer: SweepObserver,
): Promise<Session> {
  const applied = await storeDecidedChange(deps, session, (s) =>
    lifetimeStep(s, deps.clock.now(), deps.reconcileIntervalMs),
  );
  for (const event of applied.stored?.events ?? []) {
    deps.logger.info(
      { sessionId: session.id, eventId: event.eventId, type: event.type },
      "session lifetime event",
    );
    observer.eventStored(event.type);
  }
  return applied.session;
}
