import { newId } from "@gateway/platform";
import type { PaymentAttempt, Session } from "./session.js";

/** The events a session emits so far (expiry events come with the expiry sweeper). */
export type SessionEventType = "session.succeeded" | "session.failed";

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

interface EventBase {
  /** `evt_…`: stable, the dedupe key from the outbox to the merchant's endpoint. */
  eventId: string;
  /** Per session: 1, 2, 3… in the order the session's events happened. */
  sequence: number;
  occurredAt: Date;
}

export type SessionEvent =
  | (EventBase & { type: "session.succeeded"; payment: PaymentInfo })
  | (EventBase & { type: "session.failed"; failure: FailureInfo });

/** session.succeeded for `attempt`, which just succeeded (fee and net set). */
export function succeededEvent(session: Session, attempt: PaymentAttempt, now: Date): SessionEvent {
  return {
    eventId: newId("evt"),
    type: "session.succeeded",
    sequence: session.lastEventSequence + 1,
    occurredAt: now,
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
export function failedEvent(session: Session, attempt: PaymentAttempt, failure: Omit<FailureInfo, "lastFailureCode" | "lastFailureMessage">, now: Date): SessionEvent {
  return {
    eventId: newId("evt"),
    type: "session.failed",
    sequence: session.lastEventSequence + 1,
    occurredAt: now,
    failure: {
      lastFailureCode: attempt.failureCode ?? "",
      lastFailureMessage: attempt.failureMessage ?? "",
      ...failure,
    },
  };
}
