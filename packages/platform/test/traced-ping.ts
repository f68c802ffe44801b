import Fastify, { type FastifyBaseLogger } from "fastify";
import { registerFastifyTracing } from "../src/telemetry/fastify-tracing.js";
import { captureLogger } from "./capture-logger.js";

/** The trace id `tracedPing` sends in its `traceparent`, as a caller that samples. */
export const PING_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

/**
 * One GET /ping through a traced fastify app whose handler logs "handling ping", sent with a
 * `traceparent` of PING_TRACE_ID. Resolves to the status and that log line.
 */
export async function tracedPing(): Promise<{
  statusCode: number;
  handled: Record<string, unknown> | undefined;
}> {
  const { logger, lines } = captureLogger("edge");
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  registerFastifyTracing(app);
  app.get("/ping", async (request) => {
    request.log.info("handling ping");
    return { ok: true };
  });
  const res = await app.inject({
    method: "GET",
    url: "/ping",
    headers: { traceparent: `00-${PING_TRACE_ID}-00f067aa0ba902b7-01` },
  });
  await app.close();
  return { statusCode: res.statusCode, handled: lines().find((l) => l.msg === "handling ping") };
}
