import { metricsRegistry } from "@gateway/platform";
import { Counter, Histogram } from "prom-client";
import type { AttemptReport } from "../../app/send-attempt.js";

// Created once per process (embedded mode runs one webhooks runtime; a second one shares them).
const attempts = new Counter({
  name: "gateway_webhook_attempts_total",
  help: "Webhook delivery attempts by event type and outcome (succeeded, failed, retry_scheduled, not_sent, lease_lost).",
  labelNames: ["event", "outcome"] as const,
  registers: [metricsRegistry],
});

const failures = new Counter({
  name: "gateway_webhook_failures_total",
  help: "Failed webhook attempts by cause (dns, refused, forbidden_address, timeout, tls, http_status, ...): the detail merchants are not shown.",
  labelNames: ["cause"] as const,
  registers: [metricsRegistry],
});

const responseTime = new Histogram({
  name: "gateway_webhook_response_seconds",
  help: "Time from sending a webhook to the receiver's answer (or the failure), by outcome.",
  labelNames: ["outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Records one attempt's report in Prometheus metrics. */
export function recordAttemptMetrics(report: AttemptReport): void {
  if (report.outcome === "abandoned") return;
  const outcome = report.outcome === "failed" && report.retryAt ? "retry_scheduled" : report.outcome;
  attempts.inc({ event: report.event, outcome });
  if (report.outcome === "failed") failures.inc({ cause: report.failureCause ?? "other" });
  if (
    (report.outcome === "succeeded" || report.outcome === "failed") &&
    report.responseTimeMs !== undefined
  ) {
    responseTime.observe({ outcome: report.outcome }, report.responseTimeMs / 1000);
  }
}
