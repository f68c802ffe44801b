import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CheckoutFallback } from "../checkout/checkout-fallback.js";
import { RouteMethodIndex } from "../http/route-method-index.js";
import { classifyError, GENERIC_DETAILS } from "./error-to-problem.js";
import { requestPath, sendProblem } from "./send-problem.js";

/**
 * Every error answer of the edge is a problem document: thrown errors (setErrorHandler),
 * unknown routes (404) and known paths with another method (405 + Allow). Paths are matched
 * exactly as registered; `/api/v1/gateway/sessions` without the trailing slash is a 404, not a
 * redirect, because docs/api/README.md lists every path with its slash and a redirect would turn a POST
 * into a GET in many clients.
 */
export function installProblemHandling(
  app: FastifyInstance,
  options: { errorsUrl: string; maxBodyBytes: number; checkout?: CheckoutFallback },
): void {
  const methods = new RouteMethodIndex();
  app.addHook("onRoute", (route) => methods.add(route.method, route.url));

  app.setErrorHandler((err, request, reply) => {
    const classified = classifyError(err, options.maxBodyBytes);
    if (classified.log === "error")
      request.log.error({ err: classified.cause }, "request failed unexpectedly");
    if (classified.log === "warn") request.log.warn({ err: classified.cause }, "a dependency is unavailable");
    return sendProblem(reply, options.errorsUrl, classified.problem, classified.headers);
  });

  app.setNotFoundHandler((request, reply) => {
    // A /checkout path the checkout's own routes could not take (a token longer than any route
    // parameter) is still answered as a page: buyers never see JSON.
    const page = options.checkout?.pageFor(request);
    if (page) return page(request, reply, 404);
    const allowed = methods.allowedMethods(requestPath(request));
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return sendProblem(
        reply,
        options.errorsUrl,
        {
          reason: "METHOD_NOT_ALLOWED",
          detail: `${request.method} is not allowed here; use ${allowed.join(", ")}.`,
        },
        { allow: allowed.join(", ") },
      );
    }
    return sendProblem(reply, options.errorsUrl, { reason: "NOT_FOUND", detail: GENERIC_DETAILS.NOT_FOUND! });
  });
}

/**
 * fastify's `frameworkErrors` option: errors raised before routing (a malformed URL, an
 * over-long path parameter) would otherwise be answered with fastify's own JSON body.
 */
export function frameworkErrorHandler(options: {
  errorsUrl: string;
  maxBodyBytes: number;
  checkout?: CheckoutFallback;
}) {
  return (err: Error, request: FastifyRequest, reply: FastifyReply): void => {
    const classified = classifyError(err, options.maxBodyBytes);
    const page = options.checkout?.pageFor(request);
    if (page) {
      page(request, reply, classified.problem.reason === "NOT_FOUND" ? 404 : 400);
      return;
    }
    sendProblem(reply, options.errorsUrl, classified.problem, classified.headers);
  };
}
