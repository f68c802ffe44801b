import { type Clock, Counter, Gauge, metricsRegistry } from "@gateway/platform";
import type { RefundObserver, RefundRepository } from "../../app/ports.js";

// Created once per process (embedded mode and tests build several services; they share them).
const outcomes = new Counter({
  name: "gateway_refunds_total",
  help:
    "Refund outcomes: succeeded or failed (settled_by acquirer or operations), and pending_manual (the acquirer could not " +
    "confirm it; operations must settle it by hand).",
  labelNames: ["outcome", "settled_by"] as const,
  registers: [metricsRegistry],
});

/** How many waiting refunds a scrape reads at most; above it the gauge says "at least this many". */
const MANUAL_SCAN_LIMIT = 500;
let manualSource: { refunds: Pick<RefundRepository, "listPendingManual">; clock: Clock } | undefined;
let inFlight: Promise<{ count: number; oldestAgeSeconds: number }> | undefined;

/**
 * One store read shared by both gauges of a scrape: the registry starts every collect before
 * awaiting any, so the second gauge joins the read the first one started.
 */
function readManualQueue(): Promise<{ count: number; oldestAgeSeconds: number }> | undefined {
  const source = manualSource;
  if (!source) return undefined;
  inFlight ??= source.refunds
    .listPendingManual(MANUAL_SCAN_LIMIT)
    .then((waiting) => {
      const oldest = waiting[0];
      return {
        count: waiting.length,
        oldestAgeSeconds: oldest
          ? Math.max(0, (source.clock.now().getTime() - oldest.createdAt.getTime()) / 1000)
          : 0,
      };
    })
    .finally(() => {
      inFlight = undefined;
    });
  return inFlight;
}

new Gauge({
  name: "gateway_refunds_pending_manual",
  help: `Refunds waiting for operations (PENDING_MANUAL), read from the store at scrape (at most ${MANUAL_SCAN_LIMIT}).`,
  registers: [metricsRegistry],
  async collect() {
    const queue = await readManualQueue();
    if (queue) this.set(queue.count);
  },
});

new Gauge({
  name: "gateway_refunds_pending_manual_oldest_age_seconds",
  help: "Age of the oldest refund waiting for operations (PENDING_MANUAL), read at scrape; 0 when none.",
  registers: [metricsRegistry],
  async collect() {
    const queue = await readManualQueue();
    if (queue) this.set(queue.oldestAgeSeconds);
  },
});

/** Scrapes read the manual queue from this store (the last one wired in this process). */
export function watchManualRefunds(refunds: Pick<RefundRepository, "listPendingManual">, clock: Clock): void {
  manualSource = { refunds, clock };
}

/** Refund outcomes in Prometheus metrics (never with a merchant or refund id). */
export const prometheusRefundObserver: RefundObserver = {
  refundPendingManual: () => outcomes.inc({ outcome: "pending_manual", settled_by: "none" }),
  refundSettled: (status, settledBy) =>
    outcomes.inc({ outcome: status.toLowerCase(), settled_by: settledBy }),
};
