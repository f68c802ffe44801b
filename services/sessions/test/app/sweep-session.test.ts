import { GatewayError } from "@gateway/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySweepLocks } from "../../src/adapters/memory/in-memory-sweep-locks.js";
import { cancelSession } from "../../src/app/cancel-session.js";
import { createSession } from "../../src/app/create-session.js";
import { createSessionSweeper } from "../../src/app/session-sweeper.js";
import { settleAttempt } from "../../src/app/settle-attempt.js";
import { startPayment } from "../../src/app/start-payment.js";
import { sweepSession } from "../../src/app/sweep-session.js";
import type { Session } from "../../src/domain/session.js";
import { payOnCardPage } from "../support/card-page.js";
import { pendingEventsOf } from "../support/events.js";
import { ACTIVE_TERMINALS, createInput, fakeRates, LIFETIMES } from "../support/fixtures.js";
import { type PaymentHarness, startPaymentHarness, tokenOf } from "../support/payment-harness.js";

// The sweeper's work on one session against the real EPG simulator: expiry, link expiry,
// reconciliation of attempts in flight, and late payments given back. The gateway's clock is
// manual; the simulator keeps real time (late approvals come after LATE_MS of it).

const LATE_MS = 300;
const LATE_APPROVAL_CARD = "4000000000003220";
const VISA = "4242424242424242";
const RECONCILE_MS = 60_000;

let h: PaymentHarness;

beforeAll(async () => {
  h = await startPaymentHarness({
    simulator: { lateApprovalDelayMs: LATE_MS },
    reconcileIntervalMs: RECONCILE_MS,
  });
});

afterAll(async () => {
  await h.close();
});

async function reread(session: Session): Promise<Session> {
  const found = await h.repo.findById(session.scope, session.id);
  if (!found) throw new Error(`session ${session.id} is gone`);
  return found;
}

async function sweep(session: Session): Promise<Session> {
  return sweepSession(h.deps, await reread(session));
}

async function eventTypes(session: Session): Promise<string[]> {
  return (await pendingEventsOf(h.repo, session.id)).map((e) => e.type);
}

/** The buyer starts paying with `card`; the acquirer's return is settled (still pending for the late card). */
async function payWith(session: Session, card: string): Promise<string> {
  const started = await startPayment(h.deps, tokenOf(session), "en");
  const page = await payOnCardPage(started.redirectUrl, { number: card });
  await settleAttempt(h.deps, page.orderId, "return");
  return page.orderId;
}

const waitForLateApproval = () => new Promise((resolve) => setTimeout(resolve, LATE_MS + 300));

describe("when a session's lifetime ends unpaid", () => {
  it("then a sweep makes it EXPIRED with one session.expired (after its link's announcement), and sweeping again changes nothing", async () => {
    const session = await h.newSession();
    expect(await sweep(session)).toMatchObject({ status: "CREATED" });
    h.clock.advance(LIFETIMES.sessionLifetimeMs);
    const expired = await sweep(session);
    expect(expired).toMatchObject({ status: "EXPIRED", completedAt: h.clock.now() });
    expect(expired.linkExpiryDueAt).toBeUndefined();
    h.clock.advance(1_000);
    expect((await sweep(session)).version).toBe(expired.version);
    const events = await pendingEventsOf(h.repo, session.id);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ["checkout.session.expired", 1],
      ["session.expired", 2],
    ]);
    expect(events[1]!.decoded.session?.status).toBe(6); // EXPIRED
  });

  it("then two sweeps of the same stale copy record one expiry under one event id", async () => {
    const session = await h.newSession();
    h.clock.advance(LIFETIMES.sessionLifetimeMs);
    const stale = await reread(session);
    await Promise.all([sweepSession(h.deps, stale), sweepSession(h.deps, stale)]);
    expect(await eventTypes(session)).toEqual(["checkout.session.expired", "session.expired"]);
  });
});

describe("when the checkout link's lifetime ends on a payable session", () => {
  it("then checkout.session.expired is emitted once, the session stays payable, and a repeated create mints a fresh link", async () => {
    const input = createInput((await h.newSession()).scope);
    const createDeps = {
      repo: h.repo,
      rates: fakeRates({}),
      terminals: ACTIVE_TERMINALS,
      clock: h.clock,
      lifetimes: LIFETIMES,
    };
    const { session } = await createSession(createDeps, input);
    const firstToken = tokenOf(session);
    expect(session.linkExpiryDueAt).toEqual(session.checkoutLinks[0]!.expiresAt);

    h.clock.advance(LIFETIMES.checkoutLinkLifetimeMs);
    const swept = await sweep(session);
    expect(swept.status).toBe("CREATED");
    expect(swept.linkExpiryDueAt).toBeUndefined();
    await sweep(session);
    expect(await eventTypes(session)).toEqual(["checkout.session.expired"]);

    const repeat = await createSession(createDeps, input);
    expect(repeat.created).toBe(false);
    expect(repeat.session.id).toBe(session.id);
    expect(tokenOf(repeat.session)).not.toBe(firstToken);
    expect(repeat.session.checkoutLinks.at(-1)!.expiresAt.getTime()).toBe(
      h.clock.now().getTime() + LIFETIMES.checkoutLinkLifetimeMs,
    );
    // A repeat while the fresh link is valid keeps it.
    expect(tokenOf((await createSession(createDeps, input)).session)).toBe(tokenOf(repeat.session));

    // The buyer pays through the fresh link.
    await payWith(repeat.session, VISA);
    expect((await reread(session)).status).toBe("SUCCEEDED");
    // The paid session announces nothing more when the fresh link runs out.
    h.clock.advance(LIFETIMES.checkoutLinkLifetimeMs);
    await sweep(session);
    expect(await eventTypes(session)).toEqual(["checkout.session.expired", "session.succeeded"]);
  });

  it("then an EXPIRED session repeated comes back without a fresh link", async () => {
    const input = createInput((await h.newSession()).scope);
    const createDeps = {
      repo: h.repo,
      rates: fakeRates({}),
      terminals: ACTIVE_TERMINALS,
      clock: h.clock,
      lifetimes: LIFETIMES,
    };
    const { session } = await createSession(createDeps, input);
    h.clock.advance(LIFETIMES.sessionLifetimeMs);
    await sweep(session);
    const repeat = await createSession(createDeps, input);
    expect(repeat.session).toMatchObject({ id: session.id, status: "EXPIRED" });
    expect(repeat.session.checkoutLinks).toHaveLength(1);
  });
});

describe("when an attempt is still in flight", () => {
  it("then a late approval before the lifetime ends is picked up by reconciliation: SUCCEEDED", async () => {
    const session = await h.newSession();
    await payWith(session, LATE_APPROVAL_CARD);
    expect((await reread(session)).status).toBe("PROCESSING");
    await waitForLateApproval();
    h.clock.advance(RECONCILE_MS);
    const swept = await sweep(session);
    expect(swept.status).toBe("SUCCEEDED");
    expect(swept.attempts[0]).toMatchObject({ status: "SUCCEEDED", settledBy: "reconciler" });
    expect(swept.reconcileAt).toBeUndefined();
    expect(await eventTypes(session)).toEqual(["session.succeeded"]);
  });

  it("then a late approval after the session expired is reversed at the acquirer and reported, never kept", async () => {
    const session = await h.newSession();
    const orderId = await payWith(session, LATE_APPROVAL_CARD);
    h.clock.advance(LIFETIMES.sessionLifetimeMs);
    const expired = await sweep(session);
    expect(expired.status).toBe("EXPIRED");
    expect(expired.attempts[0]!.status).toBe("PROCESSING");
    expect(expired.reconcileAt).toEqual(new Date(h.clock.now().getTime() + RECONCILE_MS));

    await waitForLateApproval();
    h.clock.advance(RECONCILE_MS);
    const returned = await sweep(session);
    expect(returned.status).toBe("EXPIRED");
    expect(returned.attempts[0]).toMatchObject({
      status: "SUCCEEDED",
      duplicatePayment: true,
      returnMethod: "reversal",
      returnedAt: h.clock.now(),
    });
    expect(returned.reconcileAt).toBeUndefined();
    const status = await h.deps.acquirer.getOrderStatus({ terminal: h.terminal, acquirerOrderId: orderId });
    expect(status.state).toBe("REVERSED");

    const events = await pendingEventsOf(h.repo, session.id);
    expect(events.map((e) => e.type)).toEqual([
      "checkout.session.expired",
      "session.expired",
      "session.late_payment_returned",
    ]);
    expect(events[2]!.decoded.latePayment).toMatchObject({
      attemptId: returned.attempts[0]!.id,
      amount: "125.500",
      currency: "TND",
      cardLastFour: "3220",
      method: "reversal",
      reason: "session_expired",
    });
  });

  it("then canceling asks the acquirer first, cancels while the buyer is still deciding, and gives a later approval back", async () => {
    const session = await h.newSession();
    const orderId = await payWith(session, LATE_APPROVAL_CARD);
    const canceled = await cancelSession(h.deps, session.scope, session.id);
    expect(canceled.status).toBe("CANCELED");
    expect(canceled.attempts[0]!.status).toBe("PROCESSING");

    await waitForLateApproval();
    // The acquirer's callback settles it: the approval is recorded as money to give back, due at once.
    const settled = await settleAttempt(h.deps, orderId, "callback");
    expect(settled.session.status).toBe("CANCELED");
    expect(settled.attempt).toMatchObject({ status: "SUCCEEDED", duplicatePayment: true });
    expect(settled.session.reconcileAt).toEqual(h.clock.now());

    const seen: string[] = [];
    const observer = {
      sessionSwept: () => {},
      eventStored: (type: string) => void seen.push(type),
      latePaymentReturn: (outcome: string) => void seen.push(`return ${outcome}`),
    };
    const returned = await sweepSession(h.deps, await reread(session), observer);
    expect(seen).toEqual(["return returned", "session.late_payment_returned"]);
    expect(returned.attempts[0]).toMatchObject({ returnMethod: "reversal" });
    expect(
      (await h.deps.acquirer.getOrderStatus({ terminal: h.terminal, acquirerOrderId: orderId })).state,
    ).toBe("REVERSED");
    const events = await pendingEventsOf(h.repo, session.id);
    expect(events.map((e) => e.type)).toEqual(["session.late_payment_returned"]);
    expect(events[0]!.decoded.latePayment?.reason).toBe("session_canceled");
  });

  it("then a late payment the acquirer cannot give back yet stays due and is given back on a later sweep", async () => {
    const session = await h.newSession();
    const orderId = await payWith(session, LATE_APPROVAL_CARD);
    await cancelSession(h.deps, session.scope, session.id);
    await waitForLateApproval();
    await settleAttempt(h.deps, orderId, "callback");

    const unavailable = new GatewayError("PROCESSOR_UNAVAILABLE", "The acquirer did not answer.");
    const down = {
      ...h.deps,
      acquirer: {
        ...h.deps.acquirer,
        reverse: () => Promise.reject(unavailable),
        refund: () => Promise.reject(unavailable),
      },
    };
    const failed: string[] = [];
    const stillHeld = await sweepSession(down, await reread(session), {
      sessionSwept() {},
      eventStored() {},
      latePaymentReturn: (o) => void failed.push(o),
    });
    expect(failed).toEqual(["failed"]);
    expect(stillHeld.attempts[0]).toMatchObject({ duplicatePayment: true });
    expect(stillHeld.attempts[0]!.returnedAt).toBeUndefined();
    expect(stillHeld.reconcileAt).toEqual(new Date(h.clock.now().getTime() + RECONCILE_MS));
    expect(await eventTypes(session)).toEqual([]);

    h.clock.advance(RECONCILE_MS);
    const returned = await sweep(session);
    expect(returned.attempts[0]).toMatchObject({ returnMethod: "reversal" });
    expect(await eventTypes(session)).toEqual(["session.late_payment_returned"]);
  });

  it("then canceling after the acquirer approved makes the session SUCCEEDED and refuses the cancel", async () => {
    const session = await h.newSession();
    const started = await startPayment(h.deps, tokenOf(session), "en");
    await payOnCardPage(started.redirectUrl, { number: VISA });
    // Neither the return nor the callback has reached the gateway: the cancel asks.
    await expect(cancelSession(h.deps, session.scope, session.id)).rejects.toMatchObject({
      reason: "SESSION_TERMINAL",
    });
    expect((await reread(session)).status).toBe("SUCCEEDED");
    expect(await eventTypes(session)).toEqual(["session.succeeded"]);
  });

  it("then an attempt whose start was interrupted (still INITIATED past its deadline) is abandoned", async () => {
    const session = await h.newSession();
    const current = await reread(session);
    const attempt = {
      id: "pa_interrupted",
      attemptNumber: 1,
      status: "INITIATED" as const,
      acquirerOrderNumber: `${current.orderNumber}-1`,
      checkoutToken: tokenOf(current),
      createdAt: h.clock.now(),
    };
    await h.repo.updateIf(current, {
      status: "PENDING",
      attempts: [attempt],
      reconcileAt: new Date(h.clock.now().getTime() + h.deps.acquirerTimeoutMs + 5_000),
    });
    h.clock.advance(h.deps.acquirerTimeoutMs + 5_001);
    const swept = await sweep(session);
    expect(swept.status).toBe("PENDING");
    expect(swept.attempts[0]).toMatchObject({ status: "ABANDONED", failureCode: "start_interrupted" });
    expect(swept.reconcileAt).toBeUndefined();
  });
});

describe("when several replicas sweep at once", () => {
  it("then every due session is swept by one of them and expires with exactly one event", async () => {
    const sessions = await Promise.all(Array.from({ length: 12 }, () => h.newSession()));
    h.clock.advance(LIFETIMES.sessionLifetimeMs);
    const locks = new InMemorySweepLocks();
    const replicas = [1, 2, 3].map(() => createSessionSweeper({ deps: h.deps, locks }));
    await Promise.all(replicas.map((r) => r.runOnce()));
    for (const session of sessions) {
      expect((await reread(session)).status).toBe("EXPIRED");
      expect(await eventTypes(session)).toEqual(["checkout.session.expired", "session.expired"]);
    }
    expect(await h.repo.findDue(h.clock.now(), 100)).toEqual([]);
  });
});
