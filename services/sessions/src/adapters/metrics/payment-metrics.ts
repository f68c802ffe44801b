import { metricsRegistry } from "@gateway/platform";
import { Counter } from "prom-client";
import type { PaymentObserver } from "../../app/ports.js";
import { isKnownFailureCode } from "../../domain/failure-messages.js";

// Created once per process (embedded mode and tests build several services; they share it).
const settled = new Counter({
  name: "gateway_payments_settled_total",
  help:
    "Payment attempts that ended, by outcome (succeeded, failed: declined, abandoned: not the buyer's try, duplicate: " +
    "approved on a session that could no longer take it, to be reversed) and failure_code (none when it succeeded).",
  labelNames: ["outcome", "failure_code"] as const,
  registers: [metricsRegistry],
});

/**
 * The failure code as a label: the gateway's own codes (failure-messages.ts, a closed table), so
 * the label stays bounded whatever an acquirer sends; anything else is "other".
 */
function failureCodeLabel(code: string | undefined): string {
  if (code === undefined || code === "") return "none";
  return isKnownFailureCode(code) ? code : "other";
}

/** Payment attempt outcomes in Prometheus metrics. */
export const prometheusPaymentObserver: PaymentObserver = {
  attemptSettled(attempt) {
    const outcome = attempt.duplicatePayment ? "duplicate" : attempt.status.toLowerCase();
    settled.inc({ outcome, failure_code: failureCodeLabel(attempt.failureCode) });
  },
};
