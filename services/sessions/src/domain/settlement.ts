import { canRetry, declinedCount, withAttempt } from "./attempts.js";
import { failureMessageFor } from "./failure-messages.js";
import { type FeePlan, feeAndNet } from "./fees.js";
import {
  type PaymentAttempt,
  type Session,
  type SessionChanges,
  type SettlementSource,
  withChanges,
} from "./session.js";
import { failedEvent, type SessionEvent, succeededEvent } from "./session-events.js";
import { outcomeOf, type SessionTrigger, statusChanges } from "./session-state-machine.js";
import { needsReconciliation } from "./sweep-schedule.js";

/** Card facts from the acquirer; never a card number. */
export interface CardFacts {
  brand: string;
  lastFour: string;
  country?: string;
}

/** What the acquirer decided about an attempt, in the gateway's words. */
export type AttemptOutcome =
  /** Nothing yet: the buyer is still on the card page (or in 3-D Secure). */
  | { kind: "pending" }
  | { kind: "succeeded"; card?: CardFacts; plan: FeePlan }
  | { kind: "declined"; failureCode: string; card?: CardFacts }
  /** Ended without a decision (the card page timed out): not one of the buyer's tries. */
  | { kind: "abandoned"; failureCode: string };

export type FinalOutcome = Exclude<AttemptOutcome, { kind: "pending" }>;

export interface Settlement {
  changes: SessionChanges;
  events: SessionEvent[];
  attempt: PaymentAttempt;
}

/**
 * The one change that settles `attempt` (still open) of `session` with `outcome`: the attempt's
 * final status and facts, the session's move from the state table, and the event the move
 * emits (session.succeeded, or session.failed with can_retry). When the session is already
 * final the attempt is recorded but the session is left alone: an approval then is marked
 * `duplicatePayment` (money to give back), and no event is emitted.
 */
export function settle(
  session: Session,
  attempt: PaymentAttempt,
  outcome: FinalOutcome,
  now: Date,
  source: SettlementSource,
): Settlement {
  const base = { ...attempt, settledAt: now, settledBy: source };
  let settled: PaymentAttempt;
  let trigger: SessionTrigger;
  let declines = declinedCount(session);
  switch (outcome.kind) {
    case "succeeded": {
      const { feeMinor, netMinor } = feeAndNet(session.amountMinor, session.currency, outcome.plan);
      settled = { ...base, status: "SUCCEEDED", ...cardFields(outcome.card), feeMinor, netMinor };
      trigger = "paymentSucceeded";
      break;
    }
    case "declined":
      settled = {
        ...base,
        status: "FAILED",
        ...cardFields(outcome.card),
        failureCode: outcome.failureCode,
        failureMessage: failureMessageFor(outcome.failureCode),
      };
      declines += 1;
      trigger = canRetry(declines, session.maxAttempts) ? "declinedCanRetry" : "declinedExhausted";
      break;
    case "abandoned":
      settled = {
        ...base,
        status: "ABANDONED",
        failureCode: outcome.failureCode,
        failureMessage: failureMessageFor(outcome.failureCode),
      };
      trigger = "attemptAbandoned";
      break;
  }

  const rule = outcomeOf(session, trigger);
  if (rule.kind === "recordOnly" && settled.status === "SUCCEEDED")
    settled = { ...settled, duplicatePayment: true };
  const attempts = withAttempt(session.attempts, settled);
  const schedule = reconcileScheduleAfter({ ...session, attempts }, settled, now);
  if (rule.kind !== "move")
    return { changes: { attempts, updatedAt: now, ...schedule }, events: [], attempt: settled };

  const changes: SessionChanges = { ...statusChanges(rule.to, now), attempts, ...schedule };
  const after: Session = withChanges(session, changes);
  const events: SessionEvent[] = [];
  if (outcome.kind === "succeeded") events.push(succeededEvent(after, settled, now));
  if (outcome.kind === "declined") {
    events.push(
      failedEvent(
        after,
        settled,
        { attemptsCount: declines, canRetry: canRetry(declines, session.maxAttempts) },
        now,
      ),
    );
  }
  return { changes, events, attempt: settled };
}

/**
 * Money to give back is due at once; with nothing left for the acquirer the schedule is
 * cleared; otherwise (another attempt in flight, older money to give back) it stays as it is.
 */
function reconcileScheduleAfter(
  after: Session,
  settled: PaymentAttempt,
  now: Date,
): Pick<SessionChanges, "reconcileAt"> {
  if (settled.duplicatePayment === true) return { reconcileAt: now };
  return needsReconciliation(after) ? {} : { reconcileAt: null };
}

function cardFields(
  card: CardFacts | undefined,
): Partial<Pick<PaymentAttempt, "cardBrand" | "cardLastFour" | "cardCountry">> {
  if (!card) return {};
  return {
    cardBrand: card.brand,
    cardLastFour: card.lastFour,
    ...(card.country !== undefined ? { cardCountry: card.country } : {}),
  };
}
