import type { Client } from "@connectrpc/connect";
import type { SessionService } from "@gateway/proto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RouteMethodIndex } from "../http/route-method-index.js";
import { classifyError } from "../problem/error-to-problem.js";
import { requestPath } from "../problem/send-problem.js";
import { registerAcquirerCallbackRoutes } from "./acquirer-callback-routes.js";
import { registerAcquirerReturnRoutes } from "./acquirer-return-routes.js";
import { type CheckoutPagesConfig, resolveCheckoutConfig } from "./checkout-config.js";
import type { CheckoutFallback } from "./checkout-fallback.js";
import { CheckoutPageRenderer } from "./checkout-page-renderer.js";
import { checkoutPath, LINK_TOKEN, registerCheckoutPageRoutes } from "./checkout-page-routes.js";
import { CsrfTokens } from "./csrf.js";
import { errorNotice } from "./error-notices.js";
import { formOf, installFormBodyParser } from "./form-body.js";
import { PageRequest } from "./page-request.js";
import { loadStylesheet, STYLESHEET_PATH } from "./stylesheet.js";
import type { NoticeAction } from "./views/notice-page.js";

export interface CheckoutPagesDeps {
  sessions: Client<typeof SessionService>;
  config?: CheckoutPagesConfig;
  /** Given the checkout's page for answers decided before routing (bad URLs, over-long tokens). */
  fallback?: CheckoutFallback;
}

/**
 * The hosted checkout under /checkout: public (no API key; the unguessable link token is the
 * credential), HTML only, no JavaScript. Its own scope replaces the edge's JSON parser with a
 * form parser and its problem+json answers with pages, so no buyer ever sees a JSON error.
 */
export function registerCheckoutPages(app: FastifyInstance, deps: CheckoutPagesDeps): void {
  const config = resolveCheckoutConfig(deps.config);
  const stylesheet = loadStylesheet();
  const renderer = new CheckoutPageRenderer(stylesheet.href, config.formActionOrigins);
  const csrf = new CsrfTokens(config.csrfSecret);
  const secureCookies = config.secureCookies;
  deps.fallback?.set((request, reply, status) => {
    const page = new PageRequest(request, secureCookies);
    return status === 404
      ? renderer.sendNotice(reply, page, 404, { notice: page.m.notFound })
      : renderer.sendNotice(reply, page, 400, { notice: page.m.badRequest, tone: "alert" });
  });

  app.register(
    async function checkoutPages(scope) {
      installFormBodyParser(scope);
      const methods = new RouteMethodIndex();
      scope.addHook("onRoute", (route) => methods.add(route.method, route.url));

      const pageFor = (request: FastifyRequest) =>
        new PageRequest(request, secureCookies, formOf(request.body).get("lang") ?? undefined);

      scope.setErrorHandler((err, request, reply) => {
        const classified = classifyError(err, 0);
        if (classified.log === "error")
          request.log.error({ err: classified.cause }, "checkout request failed unexpectedly");
        if (classified.log === "warn")
          request.log.warn({ err: classified.cause }, "a dependency of the checkout is unavailable");
        for (const [name, value] of Object.entries(classified.headers)) {
          if (name === "retry-after") reply.header(name, value);
        }
        const page = pageFor(request);
        const token = (request.params as { token?: unknown } | undefined)?.token;
        const knownToken = typeof token === "string" && LINK_TOKEN.test(token) ? token : undefined;
        // Another Pay is starting this session's payment: say so at once (409), with a way to
        // look again, rather than making the buyer wait for it.
        if (classified.problem.metadata?.payment_in_progress === "true") {
          return renderer.sendNotice(reply, page, 409, {
            notice: page.m.processing,
            tone: "warning",
            actions:
              knownToken === undefined ? [] : [{ label: page.m.checkAgain, href: checkoutPath(knownToken) }],
          });
        }
        return sendErrorPage(reply, page, classified.problem.reason, knownToken, request.id);
      });

      scope.setNotFoundHandler((request, reply) => {
        const page = pageFor(request);
        const allowed = methods.allowedMethods(requestPath(request));
        if (allowed.length > 0 && !allowed.includes(request.method)) {
          reply.header("allow", allowed.join(", "));
          return renderer.sendNotice(reply, page, 405, { notice: page.m.badRequest, tone: "alert" });
        }
        return renderer.sendNotice(reply, page, 404, { notice: page.m.notFound });
      });

      scope.get(STYLESHEET_PATH.slice("/checkout".length), async (_request, reply) =>
        reply
          .type("text/css; charset=utf-8")
          .header("cache-control", "public, max-age=31536000, immutable")
          .header("x-content-type-options", "nosniff")
          .send(stylesheet.css),
      );
      registerCheckoutPageRoutes(scope, { sessions: deps.sessions, renderer, csrf, secureCookies });
      registerAcquirerReturnRoutes(scope, {
        sessions: deps.sessions,
        renderer,
        secureCookies,
        publicOrigin: config.publicOrigin,
      });
      registerAcquirerCallbackRoutes(scope, deps.sessions);
    },
    { prefix: "/checkout" },
  );

  function sendErrorPage(
    reply: FastifyReply,
    page: PageRequest,
    reason: Parameters<typeof errorNotice>[0],
    token: string | undefined,
    requestId: string,
  ) {
    const chosen = errorNotice(reason, page.m);
    const actions: NoticeAction[] = [];
    if (token !== undefined && chosen.offerBack !== "none") {
      actions.push({
        label: chosen.offerBack === "retry" ? page.m.tryAgain : page.m.backToPayment,
        href: checkoutPath(token),
      });
    }
    return renderer.sendNotice(
      reply,
      page,
      chosen.status,
      {
        notice: chosen.notice,
        tone: "alert",
        actions,
        ...(chosen.showReference ? { reference: { label: page.m.reference, value: requestId } } : {}),
      },
      token === undefined ? {} : { languageHref: page.languageHrefFor(checkoutPath(token)) },
    );
  }
}
