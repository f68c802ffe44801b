import { describe, expect, it } from "vitest";
import { newAttempt } from "../../src/domain/attempts.js";
import type { FeePlan } from "../../src/domain/fees.js";
import type { PaymentAttempt, Session, SessionStatus } from "../../src/domain/session.js";
import { settle } from "../../src/domain/settlement.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const now = new Date(Date.UTC(2026, 0, 1, 12));
const PLAN: FeePlan = { percent: "1.5", fixedMinor: 100n };

function processing(
  declines = 0,
  maxAttempts = 3,
  status: SessionStatus = "PROCESSING",
  lastEventSequence = 0,
): { session: Session; attempt: PaymentAttempt } {
  const base = {
    ...sessionFixture(newScope(), { amount: "100.000", maxAttempts }),
    status,
    lastEventSequence,
  };
  const failed: PaymentAttempt[] = Array.from({ length: declines }, (_, i) => ({
    ...newAttempt({ ...base, attempts: [] }, "tok", now),
    attemptNumber: i + 1,
    status: "FAILED",
    failureCode: "card_declined",
  }));
  const withFailed = { ...base, attempts: failed };
  const attempt: PaymentAttempt = {
    ...newAttempt(withFailed, "tok", now),
    status: "PROCESSING",
    acquirerOrderId: "order-1",
  };
  return { session: { ...withFailed, attempts: [...failed, attempt] }, attempt };
}

describe("settle", () => {
  it("when the acquirer approved, then the attempt gets card, fee and net, the session succeeds, and session.succeeded follows the last event", () => {
    const { session, attempt } = processing(0, 3, "PROCESSING", 2);
    const result = settle(
      session,
      attempt,
      { kind: "succeeded", card: { brand: "visa", lastFour: "4242", country: "US" }, plan: PLAN },
      now,
      "return",
    );
    expect(result.attempt).toMatchObject({
      status: "SUCCEEDED",
      cardBrand: "visa",
      cardLastFour: "4242",
      cardCountry: "US",
      feeMinor: 1_600n,
      netMinor: 98_400n,
      settledAt: now,
      settledBy: "return",
    });
    expect(result.changes).toMatchObject({ status: "SUCCEEDED", completedAt: now, updatedAt: now });
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({
      type: "session.succeeded",
      sequence: 3,
      occurredAt: now,
      payment: {
        paidAt: now,
        method: "card",
        cardBrand: "visa",
        cardLastFour: "4242",
        cardCountry: "US",
        feeMinor: 1_600n,
        netMinor: 98_400n,
      },
    });
  });

  it("when the acquirer declined with tries left, then the session goes back to PENDING and session.failed says it can retry", () => {
    const { session, attempt } = processing(1, 3);
    const result = settle(
      session,
      attempt,
      { kind: "declined", failureCode: "insufficient_funds" },
      now,
      "callback",
    );
    expect(result.attempt).toMatchObject({
      status: "FAILED",
      failureCode: "insufficient_funds",
      failureMessage: "The card has insufficient funds.",
    });
    expect(result.changes.status).toBe("PENDING");
    expect(result.changes.completedAt).toBeUndefined();
    expect(result.events[0]).toMatchObject({
      type: "session.failed",
      failure: {
        lastFailureCode: "insufficient_funds",
        lastFailureMessage: "The card has insufficient funds.",
        attemptsCount: 2,
        canRetry: true,
      },
    });
  });

  it("when the last allowed try is declined, then the session fails and session.failed says no retry", () => {
    const { session, attempt } = processing(2, 3);
    const result = settle(
      session,
      attempt,
      { kind: "declined", failureCode: "card_declined" },
      now,
      "return",
    );
    expect(result.changes).toMatchObject({ status: "FAILED", completedAt: now });
    expect(result.events[0]).toMatchObject({
      type: "session.failed",
      failure: { attemptsCount: 3, canRetry: false },
    });
  });

  it("when the card page timed out, then the attempt is abandoned, the session waits again, and nothing is emitted", () => {
    const { session, attempt } = processing(2, 3);
    const result = settle(
      session,
      attempt,
      { kind: "abandoned", failureCode: "session_timeout" },
      now,
      "reconciler",
    );
    expect(result.attempt).toMatchObject({ status: "ABANDONED", failureCode: "session_timeout" });
    expect(result.changes.status).toBe("PENDING");
    expect(result.events).toEqual([]);
  });

  it("when an approval arrives for a session that already succeeded, then it is a duplicate payment and the session is untouched", () => {
    const { session, attempt } = processing(0, 3, "SUCCEEDED");
    const result = settle(
      session,
      attempt,
      { kind: "succeeded", card: { brand: "visa", lastFour: "4242" }, plan: PLAN },
      now,
      "callback",
    );
    expect(result.attempt).toMatchObject({ status: "SUCCEEDED", duplicatePayment: true });
    expect(result.changes.status).toBeUndefined();
    expect(result.changes.completedAt).toBeUndefined();
    expect(result.events).toEqual([]);
  });

  it.each(["CANCELED", "EXPIRED", "FAILED"] as const)(
    "when a decline arrives for a %s session, then only the attempt is recorded",
    (status) => {
      const { session, attempt } = processing(0, 3, status);
      const result = settle(
        session,
        attempt,
        { kind: "declined", failureCode: "card_declined" },
        now,
        "callback",
      );
      expect(result.attempt.status).toBe("FAILED");
      expect(result.changes.status).toBeUndefined();
      expect(result.events).toEqual([]);
    },
  );
});
