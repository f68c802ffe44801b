import { randomUUID } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import {
  deferredChildLoggerFactory,
  GatewayError,
  holdWritesUntilTurnEnds,
  type Logger,
  registerFastifyTracing,
  systemClock,
} from "@gateway/platform";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { schemaValidatorCompiler } from "./api/schema-validation.js";
import { ApiKeyAuthenticator } from "./auth/api-key-authenticator.js";
import { declareCallerSlot, setCaller } from "./auth/authenticated-caller.js";
import { readBearerToken } from "./auth/bearer-token.js";
import { InProcessKeyRevocations } from "./auth/key-revocations.js";
import { CheckoutFallback } from "./checkout/checkout-fallback.js";
import { registerCheckoutPages } from "./checkout/checkout-pages.js";
import { mountEpgSimulator } from "./checkout/epg-simulator-mount.js";
import { registerDashboardPages } from "./dashboard/dashboard-pages.js";
import type { EdgeDeps } from "./edge-deps.js";
import { installHttpMetrics } from "./http/http-metrics.js";
import { installJsonContentTypeParser } from "./http/json-content-type-parser.js";
import { answerExpectationsWithProblems, requireHostHeader } from "./http/node-answers.js";
import { answerNulInUrl, NUL_IN_URL } from "./http/nul-in-url.js";
import { createClientErrorHandler } from "./problem/client-error-handler.js";
import { frameworkErrorHandler, installProblemHandling } from "./problem/install-problem-handling.js";
import { installRateLimiting } from "./rate-limit/rate-limit-hook.js";
import { registerAdminDashboardRoutes } from "./routes/admin-dashboard-routes.js";
import { registerAdminRefundRoutes } from "./routes/admin-refund-routes.js";
import { registerAdminRoutes } from "./routes/admin-routes.js";
import { registerAdminVerificationRoutes } from "./routes/admin-verification-routes.js";
import { registerAdminWebhookRoutes } from "./routes/admin-webhook-routes.js";
import { registerApiDocsRoutes } from "./routes/api-docs-routes.js";
import { registerCheckoutApiRoutes } from "./routes/checkout-api-routes.js";
import { registerErrorPagesRoutes } from "./routes/error-pages-routes.js";
import { registerEventStreamRoutes } from "./routes/event-stream-routes.js";
import { registerHealthRoutes } from "./routes/health-routes.js";
import { registerRefundRoutes } from "./routes/refund-routes.js";
import { registerSessionsRoutes } from "./routes/sessions-routes.js";
import { registerWebhookRoutes } from "./routes/webhook-routes.js";

const HSTS_VALUE = "max-age=31536000";

/**
 * The edge: the only public HTTP surface. It authenticates, maps JSON <-> proto and errors to
 * problem documents, and holds no business rules. Returned ready to `listen` or `inject`.
 */
export function createEdgeApp(deps: EdgeDeps): FastifyInstance {
  const { config } = deps;
  // Answers decided before routing under /checkout are pages too, once the checkout is registered.
  const checkoutFallback = new CheckoutFallback();
  const problemOptions = {
    errorsUrl: config.errorsUrl,
    maxBodyBytes: config.maxBodyBytes,
    checkout: checkoutFallback,
  };
  // Browsers that reached an https public URL keep to https for a year (no includeSubDomains:
  // the operator's other hosts are not ours to decide).
  const hsts = new URL(config.checkout?.publicUrl ?? "http://localhost").protocol === "https:";
  const answerFrameworkError = frameworkErrorHandler(problemOptions);
  const app = Fastify({
    // A pino Logger is a FastifyBaseLogger; typing it as such keeps FastifyInstance's default generics.
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: config.maxBodyBytes,
    genReqId: () => randomUUID(),
    // A request's logger is made when it first writes (docs/decisions.md#a-requests-logger-is-made-when-it-first-writes).
    childLoggerFactory: (logger, bindings, options) =>
      deferredChildLoggerFactory(logger as Logger, bindings, options),
    // fastify's own 503 body while closing is not a problem document; the hook below answers instead.
    return503OnClosing: false,
    // Raised before any hook runs (a malformed URL): the HSTS header is added here too.
    frameworkErrors: (err, request, reply) => {
      if (hsts) reply.header("strict-transport-security", HSTS_VALUE);
      answerFrameworkError(err, request, reply);
    },
    clientErrorHandler: createClientErrorHandler(config.errorsUrl),
    // Node itself would answer a missing Host with a bare 400; the hook below answers instead.
    http: { requireHostHeader: false },
  });
  answerExpectationsWithProblems(app.server);
  // A turn's answers leave together (docs/decisions.md#answers-leave-when-the-event-loops-turn-ends).
  holdWritesUntilTurnEnds(app.server);

  // A SERVER span per request; gRPC calls made while handling it become its children.
  registerFastifyTracing(app);
  // Before any route: the root hook then covers every route, the 404 handler and errors.
  installHttpMetrics(app);
  installProblemHandling(app, problemOptions);
  installJsonContentTypeParser(app, config.maxBodyBytes);
  // Route schemas (api/operations.ts) validate requests and fail as the problem documents of docs/api/errors.md.
  app.setValidatorCompiler(schemaValidatorCompiler);

  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // A callback hook, as every request passes it with nothing to wait for
  // (docs/decisions.md#hooks-with-nothing-to-wait-for-take-a-callback). fastify answers what it
  // throws as it answers a hook's error; after answering itself, it does not call `done`.
  app.addHook("onRequest", (request, reply, done) => {
    // Every answer names its request, so a merchant can quote it and an operator find the logs.
    reply.header("request-id", request.id);
    if (hsts) reply.header("strict-transport-security", HSTS_VALUE);
    requireHostHeader(request);
    // No resource name or filter value holds a NUL; and FerretDB on PostgreSQL fails any query
    // holding one instead of finding nothing (docs/decisions.md#a-nul-in-the-url-finds-nothing).
    if (NUL_IN_URL.test(request.url)) {
      answerNulInUrl(request, reply);
      return;
    }
    if (closing && request.url !== "/healthz") {
      reply.header("connection", "close");
      throw new GatewayError("SERVICE_UNAVAILABLE", "The gateway is restarting; retry on a new connection.");
    }
    done();
  });

  registerHealthRoutes(app, deps.readiness ?? [], () => closing);
  registerErrorPagesRoutes(app);
  registerApiDocsRoutes(app);
  // Cookies of the checkout pages (parsed for every request: API requests rarely carry any).
  app.register(fastifyCookie);
  registerCheckoutPages(app, {
    sessions: deps.sessions,
    config: config.checkout,
    fallback: checkoutFallback,
  });
  if (deps.epgSimulator) mountEpgSimulator(app, deps.epgSimulator);
  // Every edge replica forgets a revoked (or rolled) key at once, whoever revoked it.
  const revocations = deps.keyRevocations ?? new InProcessKeyRevocations();
  // The merchant dashboard needs its users' service; without it /dashboard is not served.
  if (deps.dashboardUsers) {
    registerDashboardPages(app, {
      clients: {
        dashboardUsers: deps.dashboardUsers,
        accounts: deps.accounts,
        sessions: deps.sessions,
        ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
        ...(deps.refunds ? { refunds: deps.refunds } : {}),
        ...(deps.sessionRefunds ? { sessionRefunds: deps.sessionRefunds } : {}),
        ...(deps.exchangeRates ? { exchangeRates: deps.exchangeRates } : {}),
        ...(deps.apiKeys ? { apiKeys: deps.apiKeys } : {}),
        ...(deps.businessVerification ? { businessVerification: deps.businessVerification } : {}),
        ...(deps.auditLog ? { auditLog: deps.auditLog } : {}),
        ...(deps.webhookEndpoints ? { webhookEndpoints: deps.webhookEndpoints } : {}),
      },
      ...(config.checkout ? { config: config.checkout } : {}),
      onKeyChanged: (keyId) => revocations.announce(keyId),
      clock: deps.clock ?? systemClock,
    });
  }

  const authenticator = new ApiKeyAuthenticator(
    deps.accounts,
    deps.clock ?? systemClock,
    config.authCacheTtlMs,
  );
  revocations.onRevoked((keyId) => authenticator.forgetKey(keyId));
  app.register(
    async function merchantApi(api) {
      declareCallerSlot(api);
      api.addHook("onRequest", async (request) => {
        setCaller(request, await authenticator.authenticate(readBearerToken(request.headers.authorization)));
      });
      // After the API key hook: budgets belong to the caller's account and mode.
      if (deps.rateLimiter) installRateLimiting(api, deps.rateLimiter);
      registerSessionsRoutes(api, deps.sessions);
      registerCheckoutApiRoutes(api, deps.sessions);
      if (deps.webhooks) registerWebhookRoutes(api, { sessions: deps.sessions, webhooks: deps.webhooks });
      if (deps.refunds) registerRefundRoutes(api, deps.refunds);
      registerEventStreamRoutes(api, {
        ...(deps.liveEvents ? { feed: deps.liveEvents } : {}),
        ...config.eventStream,
      });
    },
    { prefix: "/api/v1" },
  );

  const adminToken = config.adminToken;
  if (adminToken !== undefined && adminToken !== "") {
    app.register(
      async function adminApi(admin) {
        registerAdminRoutes(admin, {
          accounts: deps.accounts,
          adminToken,
          onKeyRevoked: (keyId) => revocations.announce(keyId),
        });
        // Same plugin, so behind the admin-token guard registerAdminRoutes installs.
        if (deps.webhooks)
          registerAdminWebhookRoutes(admin, {
            accounts: deps.accounts,
            webhooks: deps.webhooks,
            ...(deps.webhookEndpoints ? { webhookEndpoints: deps.webhookEndpoints } : {}),
          });
        if (deps.refunds) registerAdminRefundRoutes(admin, deps.refunds);
        if (deps.businessVerification)
          registerAdminVerificationRoutes(admin, { businessVerification: deps.businessVerification });
        if (deps.dashboardUsers) {
          const publicUrl = config.checkout?.publicUrl ?? "http://localhost:8080";
          registerAdminDashboardRoutes(admin, { dashboardUsers: deps.dashboardUsers, publicUrl });
        }
      },
      { prefix: "/admin/v1" },
    );
  }
  return app;
}
