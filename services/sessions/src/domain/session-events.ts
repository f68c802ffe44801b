import { derivedId } from "@gateway/platform";
import type { LatePaymentReturnMethod, PaymentAttempt, Session } from "./session.js";

export type SessionEventType =
  | "session.succeeded"
  | "session.failed"
  | "session.expired"
  | "checkout.session.expired"
  | "session.late_payment_returned";

export interface PaymentInfo {
  paidAt: Date;
  method: "card";
  cardBrand: string;
  cardLastFour: string;
  cardCountry?: string;
  feeMinor: bigint;
  netMinor: bigint;
}

export interface FailureInfo {
  lastFailureCode: string;
  lastFailureMessage: string;
  /** Declined attempts so far (abandoned ones are not the buyer's tries). */
  attemptsCount: number;
  canRetry: boolean;
}

/** Why a session could not keep a payment the acquirer approved. */
export type LatePaymentReason = "session_expired" | "session_canceled" | "session_failed" | "already_paid";

export interface LatePaymentInfo {
  attemptId: string;
  /** Settlement currency minor units. */
  amountMinor: bigint;
  cardBrand: string;
  cardLastFour: string;
  approvedAt: Date;
  returnedAt: Date;
  method: LatePaymentReturnMethod;
  reason: LatePaymentReason;
}

interface EventBase {
  /**
   * `evt_…`, derived from the fact the event reports (never random): recording the same fact
   * twice (a repeat after a crash, two replicas racing) gives the same id, which the stream and
   * the webhooks service deduplicate.
   */
  eventId: string;
  /** Per session: 1, 2, 3… in the order the session's events happened. */
  sequence: number;
  occurredAt: Date;
}

export type SessionEvent =
  | (EventBase & { type: "session.succeeded"; payment: PaymentInfo })
  | (EventBase & { type: "session.failed"; failure: FailureInfo })
  | (EventBase & { type: "session.expired" })
  | (EventBase & { type: "checkout.session.expired"; checkoutToken: string })
  | (EventBase & { type: "session.late_payment_returned"; latePayment: LatePaymentInfo });

/** The id of the event reporting `fact` (e.g. `session.expired|ps_…`). */
function eventIdOf(type: SessionEventType, fact: string): string {
  return derivedId("evt", `gateway session event\n${type}\n${fact}`);
}

function base(session: Session, type: SessionEventType, fact: string, now: Date): EventBase {
  return { eventId: eventIdOf(type, fact), sequence: session.lastEventSequence + 1, occurredAt: now };
}

/** session.succeeded for `attempt`, which just succeeded (fee and net set). */
export function succeededEvent(session: Session, attempt: PaymentAttempt, now: Date): SessionEvent {
  return {
    ...base(session, "session.succeeded", attempt.id, now),
    type: "session.succeeded",
    payment: {
      paidAt: attempt.settledAt ?? now,
      method: "card",
      cardBrand: attempt.cardBrand ?? "",
      cardLastFour: attempt.cardLastFour ?? "",
      ...(attempt.cardCountry !== undefined ? { cardCountry: attempt.cardCountry } : {}),
      feeMinor: attempt.feeMinor ?? 0n,
      netMinor: attempt.netMinor ?? session.amountMinor,
    },
  };
}

/** session.failed for `attempt`, which was just declined. */
export function failedEvent(
  session: Session,
  attempt: PaymentAttempt,
  failure: Omit<FailureInfo, "lastFailureCode" | "lastFailureMessage">,
  now: Date,
): SessionEvent {
  return {
    ...base(session, "session.failed", attempt.id, now),
    type: "session.failed",
    failure: {
      lastFailureCode: attempt.failureCode ?? "",
      lastFailureMessage: attempt.failureMessage ?? "",
      ...failure,
    },
  };
}

/** session.expired: one per session, whoever records it. */
export function expiredEvent(session: Session, now: Date): SessionEvent {
  return { ...base(session, "session.expired", session.id, now), type: "session.expired" };
}

/** checkout.session.expired for the link `token`: one per link. */
export function linkExpiredEvent(session: Session, token: string, now: Date): SessionEvent {
  return {
    ...base(session, "checkout.session.expired", token, now),
    type: "checkout.session.expired",
    checkoutToken: token,
  };
}

/** session.late_payment_returned for the duplicate payment of `attempt`, just given back. */
export function latePaymentReturnedEvent(
  session: Session,
  latePayment: LatePaymentInfo,
  now: Date,
): SessionEvent {
  return {
    ...base(session, "session.late_payment_returned", latePayment.attemptId, now),
    type: "session.late_payment_returned",
    latePayment,
  };
}
