import { GatewayError, type ReadinessCheck, runReadinessChecks } from "@gateway/platform";
import type { FastifyInstance } from "fastify";
import { sendJson } from "../http/send-json.js";

/**
 * `/healthz`: the process is alive. `/readyz`: every dependency answered its health check in
 * time and the edge is not shutting down; otherwise a 503 service-unavailable problem naming
 * the failing dependencies, so a load balancer takes this replica out. Prometheus `/metrics` is
 * not here but on the management listener (MANAGEMENT_PORT): the public port never serves it.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  readiness: readonly ReadinessCheck[],
  isClosing: () => boolean,
): void {
  app.get("/healthz", async (_request, reply) =>
    sendJson(reply.header("cache-control", "no-store"), 200, { status: "ok" }),
  );

  app.get("/readyz", async (request, reply) => {
    reply.header("cache-control", "no-store");
    if (isClosing()) throw new GatewayError("SERVICE_UNAVAILABLE", "The edge is shutting down.");
    const report = await runReadinessChecks(readiness, request.log);
    if (!report.ready)
      throw new GatewayError("SERVICE_UNAVAILABLE", `Not ready: ${report.failed.join(", ")} unavailable.`);
    return sendJson(reply, 200, { status: "ok" });
  });
}
