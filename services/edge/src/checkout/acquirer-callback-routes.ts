import type { Client } from "@connectrpc/connect";
import { fromConnectError } from "@gateway/platform";
import { type SessionService, SettlementSource } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { classifyError } from "../problem/error-to-problem.js";
import { ACQUIRER_ORDER_ID } from "./acquirer-return-routes.js";
import { formOf, singleValue } from "./form-body.js";

/**
 * Upper bound on settling during a callback. Acquirers wait a few seconds for the answer and
 * retry on anything but 2xx, so a slow acquirer status call is better answered 503 (retried
 * later; the reconciler also catches up) than left to time out.
 */
export const CALLBACK_DEADLINE_MS = 4_000;

function sendText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type("text/plain; charset=utf-8").header("cache-control", "no-store").send(text);
}

/**
 * GET|POST /checkout/callback?mdOrder=&orderNumber=&operation=&status=: the acquirer's
 * server-to-server notification (BPC style). It is only a hint: the attempt is settled from the
 * acquirer's own order status, so a forged callback cannot change an outcome. 200 "OK" once
 * settled; 503 when settling failed for now (the acquirer retries); 400/404 when retrying cannot
 * help. Answered in plain text in its own scope, never as a page.
 */
export function registerAcquirerCallbackRoutes(
  scope: FastifyInstance,
  sessions: Client<typeof SessionService>,
): void {
  scope.register(async function acquirerCallback(callbackScope) {
    callbackScope.setErrorHandler((err, request, reply) => {
      const classified = classifyError(err, 0);
      const status =
        classified.problem.reason === "PAYLOAD_TOO_LARGE" ||
        classified.problem.reason === "UNSUPPORTED_MEDIA_TYPE"
          ? 400
          : 503;
      if (status === 503) request.log.warn({ err: classified.cause }, "acquirer callback not processed");
      if (status === 503) reply.header("retry-after", "1");
      return sendText(reply, status, status === 503 ? "Retry later\n" : "Bad request\n");
    });

    callbackScope.route<{ Querystring: Record<string, unknown> }>({
      method: ["GET", "POST"],
      url: "/callback",
      handler: async (request, reply) => {
        const form = formOf(request.body);
        const mdOrder = form.get("mdOrder") ?? singleValue(request.query.mdOrder);
        if (mdOrder === undefined || !ACQUIRER_ORDER_ID.test(mdOrder))
          return sendText(reply, 400, "mdOrder is required\n");
        try {
          await sessions.settleAttempt(
            { acquirerOrderId: mdOrder, source: SettlementSource.CALLBACK },
            { timeoutMs: CALLBACK_DEADLINE_MS },
          );
        } catch (err) {
          const error = fromConnectError(err);
          if (error.reason === "NOT_FOUND") return sendText(reply, 404, "Unknown order\n");
          throw error;
        }
        return sendText(reply, 200, "OK");
      },
    });
  });
}
