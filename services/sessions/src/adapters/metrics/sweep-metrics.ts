import { metricsRegistry } from "@gateway/platform";
import { Counter } from "prom-client";
import type { SweepObserver } from "../../app/ports.js";

// Created once per process (embedded mode and tests may build several sweepers; they share them).
const sweeps = new Counter({
  name: "gateway_session_sweeps_total",
  help: "Sessions the sweeper worked on under a claim, by outcome (swept, failed: tried again on the next look).",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

const events = new Counter({
  name: "gateway_session_sweep_events_total",
  help: "Events the sweeper stored, by type (session.expired, checkout.session.expired, session.late_payment_returned).",
  labelNames: ["type"] as const,
  registers: [metricsRegistry],
});

const latePayments = new Counter({
  name: "gateway_late_payment_returns_total",
  help: "Late payments given back at the acquirer (returned) or not yet (failed: money still held, retried every reconcile interval; alert on it).",
  labelNames: ["outcome"] as const,
  registers: [metricsRegistry],
});

/** The sweeper's report in Prometheus metrics. */
export const prometheusSweepObserver: SweepObserver = {
  sessionSwept: (outcome) => sweeps.inc({ outcome }),
  eventStored: (type) => events.inc({ type }),
  latePaymentReturn: (outcome) => latePayments.inc({ outcome }),
};
