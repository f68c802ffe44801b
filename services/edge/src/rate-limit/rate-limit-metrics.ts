import { metricsRegistry } from "@gateway/platform";
import type { Decision } from "@gateway/rate-limiter";
import { Counter } from "prom-client";

/**
 * Created once per process in the platform registry (embedded mode runs one edge, tests may
 * build many apps: a second registration of the same name would throw).
 */
const degraded = new Counter({
  name: "gateway_rate_limit_degraded_total",
  help:
    "Rate limit decisions this edge took on its local limiter because the shared store (NATS KV) was unreachable, " +
    "too slow or too contended; while it grows, limits hold per edge replica, not across replicas.",
  registers: [metricsRegistry],
});

const exceeded = new Counter({
  name: "gateway_rate_limit_exceeded_total",
  help: "Requests answered 429 rate-limit-exceeded, by the budget that refused them and the key mode.",
  labelNames: ["budget", "mode"] as const,
  registers: [metricsRegistry],
});

export function recordRateLimitDecision(decision: Decision, livemode: boolean): void {
  if (decision.degraded === true) degraded.inc();
  if (!decision.allowed) exceeded.inc({ budget: decision.budget, mode: livemode ? "live" : "test" });
}
