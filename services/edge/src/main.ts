import { createLogger, initTelemetry, installGracefulShutdown, startManagementServer } from "@gateway/platform";
import { createEdgeApp } from "./app.js";
import { readEdgeConfig } from "./config.js";
import { createEdgeRateLimiting } from "./rate-limit/create-edge-rate-limiting.js";
import { createServiceClients } from "./service-clients.js";

/** Composition root of the edge in distributed mode: config -> gRPC clients -> HTTP server. */
async function main(): Promise<void> {
  const config = readEdgeConfig();
  const logger = createLogger({ service: "edge", level: config.logLevel });
  const telemetry = initTelemetry({ serviceName: "edge" });
  const clients = createServiceClients(config);
  // NATS is deliberately not a readiness check: without it limits hold per replica, the API stays up.
  const rateLimiting = await createEdgeRateLimiting({ policy: config.rateLimits, natsUrl: config.natsUrl, distributed: true, logger });
  const app = createEdgeApp({
    accounts: clients.accounts,
    sessions: clients.sessions,
    webhooks: clients.webhooks,
    refunds: clients.refunds,
    logger,
    readiness: clients.readiness,
    rateLimiter: rateLimiting.limiter,
    config: {
      errorsUrl: config.errorsUrl,
      adminToken: config.adminToken,
      maxBodyBytes: config.maxBodyBytes,
      authCacheTtlMs: config.authCacheTtlMs,
      checkout: { publicUrl: config.publicUrl, csrfSecret: config.csrfSecret, formActionOrigins: config.checkoutFormActionOrigins },
    },
  });
  await app.listen({ port: config.port, host: config.host });
  // Prometheus scrapes this port; the public one above answers /metrics with 404.
  const management = await startManagementServer({ name: "edge", host: config.host, port: config.managementPort, logger });
  logger.info({ admin: config.adminToken !== undefined, errorsUrl: config.errorsUrl }, "edge ready");
  installGracefulShutdown(logger, [
    // fastify.close stops accepting connections, answers new requests on open ones with 503, and waits for in-flight ones.
    { name: "http", run: () => app.close() },
    { name: "management", run: () => management.close() },
    { name: "rate limits", run: () => rateLimiting.close() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ]);
}

main().catch((err: unknown) => {
  // ConfigError messages name the bad variables and never echo secrets.
  process.stderr.write(`edge failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
