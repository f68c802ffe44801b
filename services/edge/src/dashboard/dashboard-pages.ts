import type { Clock } from "@gateway/platform";
import type { FastifyInstance } from "fastify";
import { type CheckoutPagesConfig, resolveCheckoutConfig } from "../checkout/checkout-config.js";
import { CsrfTokens } from "../checkout/csrf.js";
import { installFormBodyParser } from "../checkout/form-body.js";
import { loadStylesheet } from "../checkout/stylesheet.js";
import { RouteMethodIndex } from "../http/route-method-index.js";
import { classifyError } from "../problem/error-to-problem.js";
import { requestPath } from "../problem/send-problem.js";
import { DashboardCsrf } from "./dashboard-csrf.js";
import type { DashboardClients, DashboardRouteDeps } from "./dashboard-deps.js";
import { pageOf } from "./dashboard-page.js";
import { DashboardResponder } from "./dashboard-responder.js";
import { requireSignedIn } from "./dashboard-session.js";
import { DASHBOARD_STYLESHEET_PATH, loadDashboardStylesheet } from "./dashboard-stylesheet.js";
import { registerAccountRoutes } from "./routes/account-routes.js";
import { registerApiKeysRoutes } from "./routes/api-keys-routes.js";
import { registerAuditRoutes } from "./routes/audit-routes.js";
import { registerBusinessRoutes } from "./routes/business-routes.js";
import { registerCurrencyRoutes } from "./routes/currency-routes.js";
import { registerInvitationRoutes } from "./routes/invitation-routes.js";
import { registerPaymentsRoutes } from "./routes/payments-routes.js";
import { registerSessionRoutes } from "./routes/session-routes.js";
import { registerSignInRoutes } from "./routes/sign-in-routes.js";
import { registerUsersRoutes } from "./routes/users-routes.js";
import { registerWebhooksRoutes } from "./routes/webhooks-routes.js";
import { SECTION_PATHS, type Section } from "./views/dashboard-layout.js";

/**
 * The merchant dashboard under /dashboard (docs/dashboard.md): server-rendered pages with plain
 * HTML forms and no script, in English, French and Arabic. Its scope parses only HTML forms and
 * answers every error with a page, never JSON. Sign-in and invitation pages are public; the
 * rest needs a signed-in dashboard user and acts only within that user's merchant and mode.
 */
export function registerDashboardPages(
  app: FastifyInstance,
  deps: {
    clients: DashboardClients;
    config?: CheckoutPagesConfig;
    /** Called after a key is revoked or rolled, so every edge replica drops what it cached of it. */
    onKeyChanged(keyId: string): Promise<void>;
    clock: Clock;
  },
): void {
  const config = resolveCheckoutConfig(deps.config);
  const dashboardCss = loadDashboardStylesheet();
  const routeDeps: DashboardRouteDeps = {
    clients: deps.clients,
    respond: new DashboardResponder({ base: loadStylesheet().href, dashboard: dashboardCss.href }),
    csrf: new DashboardCsrf(config.csrfSecret),
    preSessionCsrf: new CsrfTokens(config.csrfSecret),
    secureCookies: config.secureCookies,
    clock: deps.clock,
    publicUrl: deps.config?.publicUrl ?? "http://localhost:8080",
    onKeyChanged: deps.onKeyChanged,
    sections: servedSections(deps.clients),
  };
  const { respond, secureCookies } = routeDeps;

  app.register(
    async function dashboardPages(scope) {
      installFormBodyParser(scope);
      const methods = new RouteMethodIndex();
      scope.addHook("onRoute", (route) => methods.add(route.method, route.url));

      scope.setErrorHandler((err, request, reply) => {
        const classified = classifyError(err, 0);
        if (classified.log === "error")
          request.log.error({ err: classified.cause }, "dashboard request failed unexpectedly");
        if (classified.log === "warn")
          request.log.warn({ err: classified.cause }, "a dependency of the dashboard is unavailable");
        return respond.failure(reply, pageOf(request, secureCookies), classified.problem.reason, request.id);
      });

      scope.setNotFoundHandler((request, reply) => {
        const page = pageOf(request, secureCookies);
        const allowed = methods.allowedMethods(requestPath(request));
        if (allowed.length > 0 && !allowed.includes(request.method)) {
          reply.header("allow", allowed.join(", "));
          return respond.notice(reply, page, 405, {
            title: page.m.errors.badRequestTitle,
            body: page.m.errors.badRequest,
            tone: "alert",
          });
        }
        return respond.notFound(reply, page);
      });

      scope.get(DASHBOARD_STYLESHEET_PATH.slice("/dashboard".length), async (_request, reply) =>
        reply
          .type("text/css; charset=utf-8")
          .header("cache-control", "public, max-age=31536000, immutable")
          .header("x-content-type-options", "nosniff")
          .send(dashboardCss.css),
      );
      scope.get("/", async (request, reply) =>
        respond.redirect(reply, pageOf(request, secureCookies), "/dashboard/payments"),
      );
      registerSignInRoutes(scope, routeDeps);
      registerInvitationRoutes(scope, routeDeps);

      scope.register(async function signedInDashboardPages(signedIn) {
        requireSignedIn(signedIn, routeDeps);
        registerSessionRoutes(signedIn, routeDeps);
        registerPaymentsRoutes(signedIn, routeDeps);
        registerApiKeysRoutes(signedIn, routeDeps);
        registerWebhooksRoutes(signedIn, routeDeps);
        registerBusinessRoutes(signedIn, routeDeps);
        registerCurrencyRoutes(signedIn, routeDeps);
        registerUsersRoutes(signedIn, routeDeps);
        registerAccountRoutes(signedIn, routeDeps);
        registerAuditRoutes(signedIn, routeDeps);
      });
    },
    { prefix: "/dashboard" },
  );
}

/** The sections whose services are wired, in navigation order. */
function servedSections(clients: DashboardClients): Section[] {
  const served: Record<Section, boolean> = {
    payments: true,
    apiKeys: clients.apiKeys !== undefined,
    webhooks: clients.webhookEndpoints !== undefined && clients.webhooks !== undefined,
    currencies: clients.exchangeRates !== undefined,
    business: clients.businessVerification !== undefined,
    users: true,
    audit: clients.auditLog !== undefined,
    account: true,
  };
  return (Object.keys(SECTION_PATHS) as Section[]).filter((section) => served[section]);
}
