import { describe, expect, it } from "vitest";
import {
  acquirerOrderNumber,
  attemptsLeft,
  canRetry,
  declinedCount,
  newAttempt,
  openAttempt,
} from "../../src/domain/attempts.js";
import type { AttemptStatus, PaymentAttempt, Session, SessionStatus } from "../../src/domain/session.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const now = new Date(Date.UTC(2026, 0, 1, 12));

function withAttempts(
  statuses: AttemptStatus[],
  maxAttempts = 3,
  status: SessionStatus = "PENDING",
): Session {
  const base = { ...sessionFixture(newScope(), { maxAttempts }), status };
  const attempts: PaymentAttempt[] = statuses.map((s, i) => ({
    ...newAttempt({ ...base, attempts: [] }, "tok", now),
    attemptNumber: i + 1,
    status: s,
  }));
  return { ...base, attempts };
}

describe("can_retry arithmetic", () => {
  it.each([
    [0, 3, true],
    [1, 3, true],
    [2, 3, true],
    [3, 3, false],
    [0, 1, true],
    [1, 1, false],
  ])("when %i declines of max_attempts %i, then can_retry is %s", (declines, max, expected) => {
    expect(canRetry(declines, max)).toBe(expected);
  });

  it("when attempts were abandoned or succeeded, then only declines count", () => {
    const session = withAttempts(["ABANDONED", "FAILED", "ABANDONED", "FAILED"], 3);
    expect(declinedCount(session)).toBe(2);
    expect(attemptsLeft(session)).toBe(1);
  });

  it("when the session can no longer be paid, then no attempt is left", () => {
    expect(attemptsLeft(withAttempts([], 3, "SUCCEEDED"))).toBe(0);
    expect(attemptsLeft(withAttempts(["FAILED", "FAILED"], 2, "FAILED"))).toBe(0);
    expect(attemptsLeft(withAttempts([], 3, "CANCELED"))).toBe(0);
  });
});

describe("attempts", () => {
  it("when a new attempt starts, then it is numbered after the last one with its own acquirer order number", () => {
    const session = withAttempts(["FAILED", "ABANDONED"]);
    const next = newAttempt(session, "token-1", now);
    expect(next).toMatchObject({
      attemptNumber: 3,
      status: "INITIATED",
      checkoutToken: "token-1",
      createdAt: now,
    });
    expect(next.id).toMatch(/^pa_[0-9A-Za-z]{24}$/);
    expect(next.acquirerOrderNumber).toBe(`${session.orderNumber}-3`);
    expect(acquirerOrderNumber("PG-ABCDEF", 10)).toBe("PG-ABCDEF-10");
  });

  it("when an attempt is INITIATED or PROCESSING, then it is the open one", () => {
    expect(openAttempt(withAttempts(["FAILED", "PROCESSING"]))?.attemptNumber).toBe(2);
    expect(openAttempt(withAttempts(["ABANDONED", "INITIATED"]))?.attemptNumber).toBe(2);
    expect(openAttempt(withAttempts(["FAILED", "SUCCEEDED"]))).toBeUndefined();
  });
});
