import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

// For services and packages that record metrics without a prom-client dependency of their own:
// one prom-client (and so one registry class) in the process.
export { Counter, Gauge, Histogram } from "prom-client";

import { observeStream } from "./observe-stream.js";

/**
 * The one Prometheus registry of this process. Embedded mode runs several services in one
 * process, so metrics are created once here (never per server) to avoid duplicate
 * registration; labels tell the services apart.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const rpcDuration = new Histogram({
  name: "gateway_rpc_duration_seconds",
  help: "Duration of RPCs handled by gateway services, by service, method and status code.",
  labelNames: ["service", "method", "code"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Status label: "ok" or the Connect code name ("not_found", "unavailable", ...). */
function codeLabel(err: unknown): string {
  if (err === undefined) return "ok";
  const code = err instanceof ConnectError ? err.code : Code.Unknown;
  return codeToString(code);
}

/** Server interceptor recording `gateway_rpc_duration_seconds{service,method,code}`. */
export function rpcMetricsInterceptor(): Interceptor {
  return (next) => async (req) => {
    const stop = rpcDuration.startTimer({ service: req.service.typeName, method: req.method.name });
    try {
      const res = await next(req);
      if (!res.stream) {
        stop({ code: "ok" });
        return res;
      }
      return { ...res, message: observeStream(res.message, (err) => stop({ code: codeLabel(err) })) };
    } catch (err) {
      stop({ code: codeLabel(err) });
      throw err;
    }
  };
}
