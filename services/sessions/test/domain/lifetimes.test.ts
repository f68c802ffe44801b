import { describe, expect, it } from "vitest";
import { latePaymentReason, lifetimeStep } from "../../src/domain/lifetimes.js";
import type { Session } from "../../src/domain/session.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const MINUTE = 60_000;
const start = new Date(Date.UTC(2026, 0, 1));
const at = (ms: number) => new Date(start.getTime() + ms);
const RECONCILE = 5 * MINUTE;

function session(overrides: Partial<Session> = {}): Session {
  return { ...sessionFixture(newScope(), {}, start), ...overrides };
}

describe("lifetimeStep", () => {
  it("when nothing is due, then there is no step", () => {
    expect(lifetimeStep(session(), at(MINUTE), RECONCILE)).toBeUndefined();
  });

  it("when the lifetime has ended on a payable session whose link lasted as long, then it expires with session.expired alone", () => {
    const s = session();
    delete s.linkExpiryDueAt;
    const step = lifetimeStep(s, s.expiresAt, RECONCILE)!;
    expect(step.changes).toMatchObject({ status: "EXPIRED", completedAt: s.expiresAt });
    expect(step.events.map((e) => [e.type, e.sequence])).toEqual([["session.expired", 1]]);
  });

  it("when the current link ran out on a payable session, then checkout.session.expired names that link once", () => {
    const s = session();
    const step = lifetimeStep(s, s.linkExpiryDueAt!, RECONCILE)!;
    expect(step.changes).toEqual({ linkExpiryDueAt: null, updatedAt: s.linkExpiryDueAt });
    expect(step.events).toMatchObject([
      { type: "checkout.session.expired", checkoutToken: s.checkoutLinks[0]!.token },
    ]);
    // The same fact always gets the same event id.
    expect(lifetimeStep(s, at(31 * MINUTE), RECONCILE)!.events[0]!.eventId).toBe(step.events[0]!.eventId);
  });

  it("when a fresh link replaced the one due, then its own expiry is scheduled instead of an announcement", () => {
    const s = session();
    const fresh = { token: "fresh", createdAt: at(29 * MINUTE), expiresAt: at(59 * MINUTE) };
    const step = lifetimeStep(
      { ...s, checkoutLinks: [...s.checkoutLinks, fresh] },
      at(30 * MINUTE),
      RECONCILE,
    )!;
    expect(step.events).toEqual([]);
    expect(step.changes.linkExpiryDueAt).toEqual(fresh.expiresAt);
  });

  it("when the session is already final, then a due link announcement is dropped", () => {
    const s = session({ status: "SUCCEEDED" });
    expect(lifetimeStep(s, at(30 * MINUTE), RECONCILE)).toEqual({
      changes: { linkExpiryDueAt: null, updatedAt: at(30 * MINUTE) },
      events: [],
    });
  });

  it("when reconciliation was due and nothing is left for the acquirer, then the schedule is cleared", () => {
    const s = session({ status: "SUCCEEDED", reconcileAt: at(MINUTE) });
    delete s.linkExpiryDueAt;
    expect(lifetimeStep(s, at(2 * MINUTE), RECONCILE)?.changes).toEqual({
      reconcileAt: null,
      updatedAt: at(2 * MINUTE),
    });
  });
});

describe("latePaymentReason", () => {
  it.each([
    ["EXPIRED", "session_expired"],
    ["CANCELED", "session_canceled"],
    ["FAILED", "session_failed"],
    ["SUCCEEDED", "already_paid"],
  ] as const)("when the session is %s, then the reason is %s", (status, reason) => {
    expect(latePaymentReason(status)).toBe(reason);
  });
});

describe("lifetimeStep after downtime", () => {
  it("when both the link and the session ran out before the sweep, then the link is announced first, then the expiry", () => {
    const s = session();
    const step = lifetimeStep(s, at(s.expiresAt.getTime() - start.getTime() + MINUTE), RECONCILE)!;
    expect(step.events.map((e) => [e.type, e.sequence])).toEqual([
      ["checkout.session.expired", 1],
      ["session.expired", 2],
    ]);
    expect(step.changes).toMatchObject({ status: "EXPIRED", linkExpiryDueAt: null });
  });
});
