import { type ManualClock, metricsRegistry } from "@gateway/platform";
import { metricValue } from "@gateway/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prometheusRefundObserver, watchManualRefunds } from "../../src/adapters/metrics/refund-metrics.js";
import { createRefund } from "../../src/app/create-refund.js";
import { resolveManualRefund } from "../../src/app/manual-refunds.js";
import { type RefundHarness, startRefundHarness } from "../support/refund-harness.js";

// Refund outcomes and the manual queue as Prometheus metrics, against the EPG simulator.
let h: RefundHarness;
let clock: ManualClock;

beforeAll(async () => {
  h = await startRefundHarness();
  h.deps.observer = prometheusRefundObserver;
  clock = h.deps.clock as ManualClock;
  watchManualRefunds(h.deps.refunds, clock);
});
afterAll(async () => {
  await h.close();
});

const refunds = (outcome: string, settled_by: string) =>
  metricValue("gateway_refunds_total", { outcome, settled_by });

/** A refund the acquirer refuses (its order was refunded elsewhere first): PENDING_MANUAL. */
async function manualRefund() {
  h.setSettled(true);
  const s = await h.paidSession(4_000n);
  await h.acquirer.refund({
    terminal: h.terminal,
    acquirerOrderId: s.acquirerOrderId,
    amountMinor: 4_000n,
    externalRefundId: "outside",
  });
  return createRefund(h.deps, { ...s, type: "FULL" });
}

describe("refund metrics", () => {
  it("when the acquirer confirms a refund, then succeeded/acquirer counts once", async () => {
    const before = await refunds("succeeded", "acquirer");
    h.setSettled(false);
    const s = await h.paidSession(10_000n);
    expect((await createRefund(h.deps, { ...s, type: "FULL" })).status).toBe("SUCCEEDED");
    expect(await refunds("succeeded", "acquirer")).toBe(before + 1);
  });

  it("when refunds wait for operations, then the queue gauges show how many and how old, and a resolution counts once", async () => {
    const pending = await refunds("pending_manual", "none");
    const waitingBefore = await metricValue("gateway_refunds_pending_manual");
    const first = await manualRefund();
    expect(first.status).toBe("PENDING_MANUAL");
    expect(await refunds("pending_manual", "none")).toBe(pending + 1);

    clock.advance(90 * 60_000);
    await manualRefund();
    // Values are read from the store when Prometheus scrapes.
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(new RegExp(`^gateway_refunds_pending_manual ${waitingBefore + 2}$`, "m"));
    const age = Number(/^gateway_refunds_pending_manual_oldest_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(90 * 60);

    const failedBefore = await refunds("failed", "operations");
    await resolveManualRefund(h.deps, { refundId: first.id, outcome: "FAILED", note: "acquirer says no" });
    await resolveManualRefund(h.deps, { refundId: first.id, outcome: "FAILED", note: "again" });
    expect(await refunds("failed", "operations")).toBe(failedBefore + 1);
    expect(await metricsRegistry.metrics()).toMatch(
      new RegExp(`^gateway_refunds_pending_manual ${waitingBefore + 1}$`, "m"),
    );
  });
});
