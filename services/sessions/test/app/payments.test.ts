import { GatewayError } from "@gateway/platform";
import { AttemptStatus, SessionStatus } from "@gateway/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleAttempt } from "../../src/app/settle-attempt.js";
import { startPayment } from "../../src/app/start-payment.js";
import { payOnCardPage } from "../support/card-page.js";
import { pendingEventsOf } from "../support/events.js";
import { SETTINGS } from "../support/fixtures.js";
import { type PaymentHarness, startPaymentHarness, tokenOf } from "../support/payment-harness.js";

// The hosted-checkout payment flow end to end in one process: the use cases, the real EPG
// adapter and the EPG simulator over HTTP, the buyer's card page driven like a browser.

const VISA = "4242424242424242";
const DECLINED = "4000000000000002";
const RETURN_URL = "https://shop.example.tn/thanks";
const CANCEL_URL = "https://shop.example.tn/cart";

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

let h: PaymentHarness;

beforeAll(async () => {
  h = await startPaymentHarness({ simulator: { lateApprovalDelayMs: 400 } });
});

afterAll(async () => {
  await h.close();
});

/** Starts a payment on the session's current link and pays it with `card` on the acquirer's page. */
async function pay(token: string, card: string, cvc?: string) {
  const started = await startPayment(h.deps, token, "en");
  const page = await payOnCardPage(started.redirectUrl, { number: card, ...(cvc ? { cvc } : {}) });
  return { started, page };
}

describe("when the buyer pays with the approved Visa test card", () => {
  it("then the session succeeds with the card facts, fee and net, and exactly one session.succeeded event", async () => {
    const session = await h.newSession({ returnUrl: RETURN_URL, cancelUrl: CANCEL_URL });
    const token = tokenOf(session);
    const wakesBefore = h.wakes();

    const started = await startPayment(h.deps, token, "en");
    expect(started.attemptId).toMatch(/^pa_/);
    expect(started.redirectUrl).toMatch(/\/epg\/payment\//);
    const processing = await h.repo.findByCheckoutToken(token);
    expect(processing?.status).toBe("PROCESSING");
    expect(processing?.attempts).toHaveLength(1);
    expect(processing?.attempts[0]).toMatchObject({
      id: started.attemptId,
      attemptNumber: 1,
      status: "PROCESSING",
      acquirerOrderNumber: `${session.orderNumber}-1`,
      checkoutToken: token,
      formUrl: started.redirectUrl,
    });

    const page = await payOnCardPage(started.redirectUrl, { number: VISA, cvc: "737" });
    expect(page.status).toBe(303);
    expect(page.location.startsWith(`${SETTINGS.publicBaseUrl}/checkout/return?`)).toBe(true);
    expect(page.orderId).toBe(processing?.attempts[0]?.acquirerOrderId);

    const result = await settleAttempt(h.deps, page.orderId, "return");
    expect(result.redirectUrl).toBe(RETURN_URL);
    expect(result.session).toMatchObject({ status: "SUCCEEDED", completedAt: h.clock.now() });
    // 125.500 TND at 2.5 % + 0.250: 3.1375 rounds half-up to 3.138, plus 0.250.
    expect(result.attempt).toMatchObject({
      status: "SUCCEEDED",
      cardBrand: "visa",
      cardLastFour: "4242",
      cardCountry: "US",
      feeMinor: 3_388n,
      netMinor: 122_112n,
      settledAt: h.clock.now(),
      settledBy: "return",
    });
    expect(result.attempt.duplicatePayment).toBeUndefined();

    const events = await pendingEventsOf(h.repo, session.id);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ type: "session.succeeded", sequence: 1 });
    expect(event!.eventId).toMatch(/^evt_/);
    expect(event!.decoded).toMatchObject({
      eventId: event!.eventId,
      eventType: "session.succeeded",
      sequence: 1n,
    });
    expect(event!.decoded.payment).toMatchObject({
      method: "card",
      cardBrand: "visa",
      cardLastFour: "4242",
      cardCountry: "US",
      feeAmount: "3.388",
      netAmount: "122.112",
    });
    expect(event!.decoded.session?.status).toBe(SessionStatus.SUCCEEDED);
    expect(event!.decoded.session?.attempts[0]).toMatchObject({
      status: AttemptStatus.SUCCEEDED,
      feeAmount: "3.388",
      netAmount: "122.112",
    });
    expect(h.wakes()).toBe(wakesBefore + 1);

    // The acquirer's callback arrives afterwards: same outcome, no second event.
    const again = await settleAttempt(h.deps, page.orderId, "callback");
    expect(again.session).toEqual(result.session);
    expect(again.attempt).toEqual(result.attempt);
    expect(await pendingEventsOf(h.repo, session.id)).toHaveLength(1);
  });

  it("then the return and the callback racing produce one outcome and one event", async () => {
    const session = await h.newSession();
    const { page } = await pay(tokenOf(session), VISA);
    const results = await Promise.all([
      settleAttempt(h.deps, page.orderId, "return"),
      settleAttempt(h.deps, page.orderId, "callback"),
      settleAttempt(h.deps, page.orderId, "reconciler"),
    ]);
    for (const r of results) {
      expect(r.session.status).toBe("SUCCEEDED");
      expect(r.attempt).toEqual(results[0]!.attempt);
    }
    const events = await pendingEventsOf(h.repo, session.id);
    expect(events.map((e) => e.type)).toEqual(["session.succeeded"]);
  });

  it("then a second start on the succeeded session is refused as SESSION_TERMINAL", async () => {
    const session = await h.newSession();
    const { page } = await pay(tokenOf(session), VISA);
    await settleAttempt(h.deps, page.orderId, "return");
    expect(await reasonOf(startPayment(h.deps, tokenOf(session), "en"))).toBe("SESSION_TERMINAL");
    expect((await h.repo.findById(session.scope, session.id))?.attempts).toHaveLength(1);
  });

  it("then, without a return_url, the buyer is sent back to the checkout page", async () => {
    const session = await h.newSession();
    const { page } = await pay(tokenOf(session), VISA);
    expect((await settleAttempt(h.deps, page.orderId, "return")).redirectUrl).toBe(
      `${SETTINGS.publicBaseUrl}/checkout/${tokenOf(session)}`,
    );
  });
});

describe("when a card is declined", () => {
  it("then the attempt fails, the session waits for another try, and a second card succeeds", async () => {
    const session = await h.newSession({ returnUrl: RETURN_URL, cancelUrl: CANCEL_URL });
    const token = tokenOf(session);

    const first = await pay(token, DECLINED);
    const declined = await settleAttempt(h.deps, first.page.orderId, "return");
    expect(declined.attempt).toMatchObject({
      attemptNumber: 1,
      status: "FAILED",
      failureCode: "card_declined",
      failureMessage: "The card was declined.",
    });
    expect(declined.session.status).toBe("PENDING");
    expect(declined.session.completedAt).toBeUndefined();
    expect(declined.redirectUrl).toBe(`${SETTINGS.publicBaseUrl}/checkout/${token}`);

    const second = await pay(token, VISA);
    expect(second.started.attemptId).not.toBe(first.started.attemptId);
    const paid = await settleAttempt(h.deps, second.page.orderId, "callback");
    expect(paid.attempt).toMatchObject({
      attemptNumber: 2,
      status: "SUCCEEDED",
      acquirerOrderNumber: `${session.orderNumber}-2`,
    });
    expect(paid.session.attempts.map((a) => [a.attemptNumber, a.status])).toEqual([
      [1, "FAILED"],
      [2, "SUCCEEDED"],
    ]);

    const events = await pendingEventsOf(h.repo, session.id);
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ["session.failed", 1],
      ["session.succeeded", 2],
    ]);
    expect(events[0]!.decoded.failure).toMatchObject({
      lastFailureCode: "card_declined",
      lastFailureMessage: "The card was declined.",
      attemptsCount: 1,
      canRetry: true,
    });
    expect(events[0]!.decoded.session?.status).toBe(SessionStatus.PENDING);
    expect(events[1]!.decoded.sequence).toBe(2n);
  });

  it("then with max_attempts 2, the second decline fails the session for good", async () => {
    const session = await h.newSession({ maxAttempts: 2, cancelUrl: CANCEL_URL });
    const token = tokenOf(session);
    const first = await pay(token, DECLINED);
    await settleAttempt(h.deps, first.page.orderId, "return");
    const second = await pay(token, "4000000000009995");
    const failed = await settleAttempt(h.deps, second.page.orderId, "return");

    expect(failed.session).toMatchObject({ status: "FAILED", completedAt: h.clock.now() });
    expect(failed.attempt).toMatchObject({
      attemptNumber: 2,
      status: "FAILED",
      failureCode: "insufficient_funds",
    });
    expect(failed.redirectUrl).toBe(CANCEL_URL);
    const events = await pendingEventsOf(h.repo, session.id);
    expect(events.map((e) => [e.decoded.failure?.attemptsCount, e.decoded.failure?.canRetry])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(events[1]!.decoded.session?.status).toBe(SessionStatus.FAILED);
    expect(await reasonOf(startPayment(h.deps, token, "en"))).toBe("SESSION_TERMINAL");
  });
});

describe("when a payment is already in progress", () => {
  it("then pressing Pay again resumes the same card page instead of registering a second order", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    const first = await startPayment(h.deps, token, "en");
    const again = await startPayment(h.deps, token, "en");
    expect(again).toEqual(first);
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.attempts).toHaveLength(1);
    expect(stored?.status).toBe("PROCESSING");
  });

  it("then two Pay presses at once share one attempt and one card page", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    const [a, b] = await Promise.all([startPayment(h.deps, token, "en"), startPayment(h.deps, token, "en")]);
    expect(b).toEqual(a);
    expect((await h.repo.findById(session.scope, session.id))?.attempts).toHaveLength(1);
  });

  it("then pressing Pay after a decline the gateway has not heard of yet settles it first and starts attempt 2", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    await pay(token, DECLINED); // the buyer never came back through the return URL
    const second = await startPayment(h.deps, token, "en");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.attempts.map((a) => [a.attemptNumber, a.status, a.settledBy])).toEqual([
      [1, "FAILED", "checkout"],
      [2, "PROCESSING", undefined],
    ]);
    expect(second.attemptId).toBe(stored?.attempts[1]?.id);
    expect((await pendingEventsOf(h.repo, session.id)).map((e) => e.type)).toEqual(["session.failed"]);
  });

  it("then pressing Pay after a payment the gateway has not heard of yet ends in SESSION_TERMINAL, and the payment is recorded", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    await pay(token, VISA);
    expect(await reasonOf(startPayment(h.deps, token, "en"))).toBe("SESSION_TERMINAL");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.status).toBe("SUCCEEDED");
    expect(stored?.attempts.map((a) => a.status)).toEqual(["SUCCEEDED"]);
  });
});

describe("when the acquirer has not decided yet", () => {
  it("then a late approval is pending at first, and succeeds once the acquirer approves", async () => {
    const session = await h.newSession();
    const { page } = await pay(tokenOf(session), "4000000000003220");
    const early = await settleAttempt(h.deps, page.orderId, "return");
    expect(early.session.status).toBe("PROCESSING");
    expect(early.attempt.status).toBe("PROCESSING");
    expect(early.redirectUrl).toBe(`${SETTINGS.publicBaseUrl}/checkout/${tokenOf(session)}`);
    expect(await pendingEventsOf(h.repo, session.id)).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 600));
    const late = await settleAttempt(h.deps, page.orderId, "reconciler");
    expect(late.session.status).toBe("SUCCEEDED");
    expect(late.attempt).toMatchObject({
      status: "SUCCEEDED",
      settledBy: "reconciler",
      cardLastFour: "3220",
    });
    expect((await pendingEventsOf(h.repo, session.id)).map((e) => e.type)).toEqual(["session.succeeded"]);
  });
});

describe("when nothing is known about an order", () => {
  it("then settling it is NOT_FOUND, and an empty id is a validation error", async () => {
    expect(await reasonOf(settleAttempt(h.deps, "no-such-order", "callback"))).toBe("NOT_FOUND");
    expect(await reasonOf(settleAttempt(h.deps, "", "callback"))).toBe("VALIDATION_ERROR");
  });

  it("then starting a payment on an unknown link is NOT_FOUND and a bad language is a validation error", async () => {
    expect(await reasonOf(startPayment(h.deps, "unknown-token", "en"))).toBe("NOT_FOUND");
    const session = await h.newSession();
    expect(await reasonOf(startPayment(h.deps, tokenOf(session), "de"))).toBe("VALIDATION_ERROR");
  });
});

describe("when the buyer chose a page language", () => {
  it("then the acquirer's card page is in it", async () => {
    const session = await h.newSession();
    const started = await startPayment(h.deps, tokenOf(session), "fr");
    const html = await (await fetch(started.redirectUrl)).text();
    expect(html).toContain('lang="fr"');
  });
});
