import { runService, startManagementServer } from "@gateway/platform";
import { createEdgeApp } from "./app.js";
import { InProcessKeyRevocations } from "./auth/key-revocations.js";
import { NatsKeyRevocations } from "./auth/nats-key-revocations.js";
import { readEdgeConfig } from "./config.js";
import { openLiveEventFeed } from "./live-events.js";
import { createEdgeRateLimiting } from "./rate-limit/create-edge-rate-limiting.js";
import { createServiceClients } from "./service-clients.js";

/** Composition root of the edge in distributed mode: config -> gRPC clients -> HTTP server. */
runService({
  name: "edge",
  readConfig: () => readEdgeConfig(),
  async start({ config, logger, onStop }) {
    const clients = createServiceClients(config);
    // NATS is deliberately not a readiness check: without it limits hold per replica, the API stays up.
    const rateLimiting = await createEdgeRateLimiting({
      policy: config.rateLimits,
      natsUrl: config.natsUrl,
      kvReplicas: config.jetstreamReplicas,
      distributed: true,
      logger,
    });
    onStop("rate limits", () => rateLimiting.close());
    // Without NATS a revocation made on another replica waits for the auth cache TTL here.
    const natsRevocations = config.natsUrl
      ? new NatsKeyRevocations({ natsUrl: config.natsUrl, logger })
      : undefined;
    await natsRevocations?.open();
    const keyRevocations = natsRevocations ?? new InProcessKeyRevocations();
    onStop("key revocations", () => keyRevocations.close());
    const liveEvents = await openLiveEventFeed(config.natsUrl, logger);
    onStop("live events", () => liveEvents?.close() ?? Promise.resolve());
    const app = createEdgeApp({
      keyRevocations,
      ...(liveEvents ? { liveEvents } : {}),
      accounts: clients.accounts,
      dashboardUsers: clients.dashboardUsers,
      sessions: clients.sessions,
      webhooks: clients.webhooks,
      refunds: clients.refunds,
      exchangeRates: clients.exchangeRates,
      sessionRefunds: clients.sessionRefunds,
      apiKeys: clients.apiKeys,
      businessVerification: clients.businessVerification,
      auditLog: clients.auditLog,
      webhookEndpoints: clients.webhookEndpoints,
      logger,
      readiness: clients.readiness,
      rateLimiter: rateLimiting.limiter,
      config: {
        errorsUrl: config.errorsUrl,
        adminToken: config.adminToken,
        maxBodyBytes: config.maxBodyBytes,
        authCacheTtlMs: config.authCacheTtlMs,
        checkout: {
          publicUrl: config.publicUrl,
          csrfSecret: config.csrfSecret,
          formActionOrigins: config.checkoutFormActionOrigins,
        },
      },
    });
    await app.listen({ port: config.port, host: config.host });
    // Prometheus scrapes this port (MANAGEMENT_PORT); the service's own port serves no /metrics.
    const management = await startManagementServer({
      name: "edge",
      host: config.host,
      port: config.managementPort,
      logger,
    });
    onStop("management", () => management.close());
    // fastify.close stops accepting connections, answers new requests on open ones with 503, and
    // waits for in-flight ones; past the deadline the process exits with them abandoned.
    onStop(
      "http",
      () => app.close(),
      () => app.server.closeAllConnections(),
    );
    logger.info({ admin: config.adminToken !== undefined, errorsUrl: config.errorsUrl }, "edge ready");
  },
});
