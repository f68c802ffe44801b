import { Writable } from "node:stream";
import { createLogger, GatewayError } from "@gateway/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelSession } from "../../src/app/cancel-session.js";
import { getCheckout } from "../../src/app/get-checkout.js";
import { settleAttempt } from "../../src/app/settle-attempt.js";
import { startPayment } from "../../src/app/start-payment.js";
import { newAttempt } from "../../src/domain/attempts.js";
import { payOnCardPage } from "../support/card-page.js";
import { pendingEventsOf } from "../support/events.js";
import { fakeMerchants } from "../support/payment-fakes.js";
import { type PaymentHarness, startPaymentHarness, tokenOf } from "../support/payment-harness.js";

// What goes wrong around a payment: the merchant's terminal, the acquirer being slow or
// unreachable, the buyer walking away, the session changing under a payment.

const VISA = "4242424242424242";

async function errorOf(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

const logLines: Array<Record<string, unknown>> = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split("\n"))
      if (line.trim() !== "") logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let h: PaymentHarness;

beforeAll(async () => {
  h = await startPaymentHarness({
    acquirerTimeoutMs: 1_500,
    simulator: { timeoutCardDelayMs: 5_000, orderTimeoutMs: 3_000 },
    logger: createLogger({ service: "sessions-test", level: "info", destination: logSink }),
  });
});

afterAll(async () => {
  await h.close();
});

describe("when the merchant's terminal is not usable", () => {
  it.each(["NO_TERMINAL_CONFIGURED", "TERMINAL_INACTIVE", "SERVICE_UNAVAILABLE"] as const)(
    "then %s propagates as it is and nothing is stored",
    async (reason) => {
      const session = await h.newSession();
      h.terminals.set(session.scope.merchantId, reason);
      expect((await errorOf(startPayment(h.deps, tokenOf(session), "en"))).reason).toBe(reason);
      const stored = await h.repo.findById(session.scope, session.id);
      expect(stored).toMatchObject({ status: "CREATED", attempts: [], version: session.version });
    },
  );

  it("then terminal credentials the acquirer refuses abandon the attempt, which does not count as a try", async () => {
    const session = await h.newSession({ maxAttempts: 1 });
    h.terminals.set(session.scope.merchantId, { ...h.terminal, password: "wrong-password" });
    expect((await errorOf(startPayment(h.deps, tokenOf(session), "en"))).reason).toBe("TERMINAL_REJECTED");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.status).toBe("PENDING");
    expect(stored?.attempts).toMatchObject([
      { attemptNumber: 1, status: "ABANDONED", failureCode: "terminal_rejected" },
    ]);

    // Once the merchant fixed the terminal, the buyer's one try is still there.
    h.terminals.set(session.scope.merchantId, h.terminal);
    const view = await getCheckout(
      { repo: h.repo, merchants: fakeMerchants(), clock: h.clock },
      tokenOf(session),
    );
    expect(view).toMatchObject({ state: "PAYABLE", attemptsLeft: 1 });
    const started = await startPayment(h.deps, tokenOf(session), "en");
    const page = await payOnCardPage(started.redirectUrl, { number: VISA });
    const paid = await settleAttempt(h.deps, page.orderId, "return");
    expect(paid.session.status).toBe("SUCCEEDED");
    expect(paid.attempt.attemptNumber).toBe(2);
  });

  it("then an unreachable acquirer abandons the attempt with processor_unavailable and the error propagates", async () => {
    const session = await h.newSession();
    h.terminals.set(session.scope.merchantId, { ...h.terminal, baseUrl: "http://127.0.0.1:9/epg/rest" });
    const err = await errorOf(startPayment(h.deps, tokenOf(session), "en"));
    expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.status).toBe("PENDING");
    expect(stored?.attempts).toMatchObject([{ status: "ABANDONED", failureCode: "processor_unavailable" }]);
    expect(stored?.attempts[0]?.acquirerOrderId).toBeUndefined();
  });
});

describe("when the acquirer does not answer in time", () => {
  it("then settling is PROCESSOR_UNAVAILABLE and the attempt stays PROCESSING, to be settled later", async () => {
    const session = await h.newSession();
    const started = await startPayment(h.deps, tokenOf(session), "en");
    const page = await payOnCardPage(started.redirectUrl, { number: "4000000000000119" });
    const err = await errorOf(settleAttempt(h.deps, page.orderId, "return"));
    expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.status).toBe("PROCESSING");
    expect(stored?.attempts.map((a) => a.status)).toEqual(["PROCESSING"]);
    expect(await pendingEventsOf(h.repo, session.id)).toEqual([]);
  });
});

describe("when the buyer leaves the card page without paying", () => {
  it("then the timed-out order abandons the attempt, without an event and without using a try", async () => {
    const session = await h.newSession({ maxAttempts: 1 });
    const started = await startPayment(h.deps, tokenOf(session), "en");
    // The simulator closes unpaid orders after 3 s (long enough for every other test here to pay
    // its card page in time on a loaded machine).
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const attempt = (await h.repo.findById(session.scope, session.id))!.attempts[0]!;
    const result = await settleAttempt(h.deps, attempt.acquirerOrderId!, "reconciler");
    expect(result.attempt).toMatchObject({
      id: started.attemptId,
      status: "ABANDONED",
      failureCode: "session_timeout",
    });
    expect(result.session.status).toBe("PENDING");
    expect(await pendingEventsOf(h.repo, session.id)).toEqual([]);
    const view = await getCheckout(
      { repo: h.repo, merchants: fakeMerchants(), clock: h.clock },
      tokenOf(session),
    );
    expect(view).toMatchObject({ state: "PAYABLE", attemptsLeft: 1 });
    expect(view?.lastFailureCode).toBeUndefined();
  });
});

describe("when the session changes under a payment", () => {
  it("then a session canceled while its order is being registered abandons the attempt and the buyer never gets the card page", async () => {
    const session = await h.newSession();
    const acquirer = h.deps.acquirer;
    const deps = {
      ...h.deps,
      acquirer: {
        ...acquirer,
        registerOrder: async (input: Parameters<typeof acquirer.registerOrder>[0]) => {
          const order = await acquirer.registerOrder(input);
          await cancelSession(h.deps, session.scope, session.id); // the merchant cancels meanwhile
          return order;
        },
      },
    };
    expect((await errorOf(startPayment(deps, tokenOf(session), "en"))).reason).toBe("SESSION_TERMINAL");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.status).toBe("CANCELED");
    expect(stored?.attempts).toMatchObject([{ status: "ABANDONED", failureCode: "session_closed" }]);
  });

  it("then an attempt whose start was interrupted long ago is abandoned and a new one starts", async () => {
    const session = await h.newSession();
    const interrupted = newAttempt(session, tokenOf(session), h.clock.now());
    await h.repo.updateIf(session, {
      status: "PENDING",
      attempts: [interrupted],
    });
    h.clock.advance(h.deps.acquirerTimeoutMs + 10_000);
    const started = await startPayment(h.deps, tokenOf(session), "en");
    const stored = await h.repo.findById(session.scope, session.id);
    expect(stored?.attempts.map((a) => [a.attemptNumber, a.status, a.failureCode])).toEqual([
      [1, "ABANDONED", "start_interrupted"],
      [2, "PROCESSING", undefined],
    ]);
    expect(started.attemptId).toBe(stored?.attempts[1]?.id);
  });

  it("then an attempt being started right now is waited for, and reported when it does not finish", async () => {
    const session = await h.newSession();
    const starting = newAttempt(session, tokenOf(session), h.clock.now());
    await h.repo.updateIf(session, {
      status: "PENDING",
      attempts: [starting],
    });
    const err = await errorOf(startPayment(h.deps, tokenOf(session), "en"));
    expect(err.reason).toBe("INVALID_STATE");
    expect((await h.repo.findById(session.scope, session.id))?.attempts).toHaveLength(1);
  });

  it("then an approval after the session succeeded through another attempt is kept as a duplicate payment, logged, and changes nothing else", async () => {
    const session = await h.newSession();
    const started = await startPayment(h.deps, tokenOf(session), "en");
    const page = await payOnCardPage(started.redirectUrl, { number: VISA });
    // Meanwhile the session succeeded through another attempt (as a reconciler could find).
    const current = (await h.repo.findById(session.scope, session.id))!;
    const other = {
      ...newAttempt(current, tokenOf(session), h.clock.now()),
      status: "SUCCEEDED" as const,
      acquirerOrderId: "other-order",
    };
    const succeeded = await h.repo.updateIf(current, {
      status: "SUCCEEDED",
      completedAt: h.clock.now(),
      attempts: [...current.attempts, other],
    });
    expect(succeeded.updated).toBe(true);

    const result = await settleAttempt(h.deps, page.orderId, "callback");
    expect(result.session.status).toBe("SUCCEEDED");
    expect(result.attempt).toMatchObject({
      id: started.attemptId,
      status: "SUCCEEDED",
      duplicatePayment: true,
      cardLastFour: "4242",
    });
    expect(result.session.attempts.find((a) => a.id === other.id)?.duplicatePayment).toBeUndefined();
    expect(await pendingEventsOf(h.repo, session.id)).toEqual([]);
    const logged = logLines.find((l) => l.attemptId === started.attemptId && l.level === 50);
    expect(logged?.msg).toContain("to be reversed");
  });
});
