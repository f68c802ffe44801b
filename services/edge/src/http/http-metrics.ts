import { metricsRegistry } from "@gateway/platform";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, Histogram } from "prom-client";

const LABELS = ["route", "method", "status_class"] as const;

/**
 * RED metrics of the public HTTP surface. Created once per process (tests build many apps; a
 * second registration of a name would throw). Labels stay bounded: the route is fastify's
 * template (`/api/v1/gateway/sessions/:id/`), never the raw URL, so ids and tokens never
 * become series; anything that matched no route is one value.
 */
const duration = new Histogram({
  name: "gateway_http_request_duration_seconds",
  help: "Time the edge took to answer an HTTP request, by route template, method and status class.",
  labelNames: LABELS,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

const DURATION_COUNT = "gateway_http_request_duration_seconds_count";

/**
 * Each answered request is observed once, in `duration`; this counter is that histogram's count by
 * the same labels, read when the metrics are: one labelled observation per request instead of
 * two (docs/decisions.md#each-request-is-counted-once-in-the-http-metrics).
 */
new Counter({
  name: "gateway_http_requests_total",
  help: "HTTP requests the edge answered, by route template, method and status class (2xx, 4xx, 5xx...).",
  labelNames: LABELS,
  registers: [metricsRegistry],
  async collect() {
    const { values } = await duration.get();
    this.reset();
    for (const value of values) if (value.metricName === DURATION_COUNT) this.inc(value.labels, value.value);
  },
});

/** The route label of a request that matched no route (404s, scanners, typos). */
export const UNMATCHED_ROUTE = "unmatched";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function routeLabel(request: FastifyRequest): string {
  // routeOptions.url is the registered template; fastify's 404 handler has none (or "*").
  const template = request.routeOptions.url;
  return template === undefined || template === "*" || template === "/*" || request.is404
    ? UNMATCHED_ROUTE
    : template;
}

/**
 * Records every answered request, errors and 404s included (onResponse runs for all of them). A
 * callback hook: it has nothing to wait for, and an async one costs every request a promise and a
 * turn of the microtask queue (docs/decisions.md#hooks-with-nothing-to-wait-for-take-a-callback).
 */
export function installHttpMetrics(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    const labels = {
      route: routeLabel(request),
      // A client may send any token as a method; only the standard ones become label values.
      method: KNOWN_METHODS.has(request.method) ? request.method : "OTHER",
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
