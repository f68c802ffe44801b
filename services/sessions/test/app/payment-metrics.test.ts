import { metricValue } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prometheusPaymentObserver } from "../../src/adapters/metrics/payment-metrics.js";
import { settleAttempt } from "../../src/app/settle-attempt.js";
import { startPayment } from "../../src/app/start-payment.js";
import { payOnCardPage } from "../support/card-page.js";
import { type PaymentHarness, startPaymentHarness, tokenOf } from "../support/payment-harness.js";

// Payment outcomes as Prometheus counters, through the real EPG adapter and simulator.
const VISA = "4242424242424242";
const DECLINED = "4000000000000002";

const settled = (outcome: string, failure_code: string) =>
  metricValue("gateway_payments_settled_total", { outcome, failure_code });
const acquirerCalls = (operation: string, result: string) =>
  metricValue("gateway_acquirer_requests_total", { operation, result });

let h: PaymentHarness;
beforeAll(async () => {
  h = await startPaymentHarness();
  h.deps.observer = prometheusPaymentObserver;
});
afterAll(async () => {
  await h.close();
});

async function payAndSettle(card: string) {
  const session = await h.newSession();
  const started = await startPayment(h.deps, tokenOf(session), "en");
  const page = await payOnCardPage(started.redirectUrl, { number: card });
  return settleAttempt(h.deps, page.orderId, "return");
}

describe("payment metrics", () => {
  it("when a payment succeeds, then succeeded/none counts once, however many times it is settled", async () => {
    const before = await settled("succeeded", "none");
    const okCalls = await acquirerCalls("register", "ok");
    const result = await payAndSettle(VISA);
    expect(result.attempt.status).toBe("SUCCEEDED");
    await settleAttempt(h.deps, result.attempt.acquirerOrderId!, "callback");
    expect(await settled("succeeded", "none")).toBe(before + 1);
    expect(await acquirerCalls("register", "ok")).toBe(okCalls + 1);
  });

  it("when a card is declined, then failed counts under the attempt's failure code", async () => {
    const result = await payAndSettle(DECLINED);
    expect(result.attempt.status).toBe("FAILED");
    const code = result.attempt.failureCode!;
    // The counter was incremented for exactly this code (read after: one settlement, one count).
    expect(await settled("failed", code)).toBeGreaterThanOrEqual(1);
    const before = await settled("failed", code);
    await payAndSettle(DECLINED);
    expect(await settled("failed", code)).toBe(before + 1);
  });

  it("when the acquirer cannot be reached, then the abandoned attempt counts as processor_unavailable and the call as unavailable", async () => {
    const abandoned = await settled("abandoned", "processor_unavailable");
    const unavailable = await acquirerCalls("register", "unavailable");
    const session = await h.newSession();
    h.terminals.set(session.scope.merchantId, { ...h.terminal, baseUrl: "http://127.0.0.1:9/epg/rest" });
    await expect(startPayment(h.deps, tokenOf(session), "en")).rejects.toThrow();
    expect(await settled("abandoned", "processor_unavailable")).toBe(abandoned + 1);
    expect(await acquirerCalls("register", "unavailable")).toBe(unavailable + 1);
  });

  it("when an attempt carries a code outside the gateway's table, then it is labelled other (bounded labels)", async () => {
    const before = await settled("failed", "other");
    prometheusPaymentObserver.attemptSettled({ status: "FAILED", failureCode: "acquirer free text 123" });
    expect(await settled("failed", "other")).toBe(before + 1);
  });
});
