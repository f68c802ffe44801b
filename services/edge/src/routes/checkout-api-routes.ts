import type { Client } from "@connectrpc/connect";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { routeSchema } from "../api/operations.js";
import { requireCaller } from "../auth/authenticated-caller.js";
import { sendJson } from "../http/send-json.js";
import { formatTimestamp } from "../mapping/rfc3339.js";

/**
 * POST /api/v1/gateway/sessions/{id}/checkout/ (docs/api/checkout.md#create-a-checkout-link): mints a new hosted
 * checkout link for a payable session. No body, an empty body or `{}`. 201
 * `{checkout_url, expires_at}`; errors are problem documents like every API error
 * (404 not-found, 409 session-terminal, 422 checkout-limit-exceeded).
 */
export function registerCheckoutApiRoutes(
  app: FastifyInstance,
  sessions: Client<typeof SessionService>,
): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(
      "/gateway/sessions/:session_id/checkout/",
      { schema: routeSchema("createCheckoutLink") },
      async (request, reply) => {
        const { scope } = requireCaller(request);
        const response = await sessions.createCheckout({ scope, sessionId: request.params.session_id });
        if (response.checkoutUrl === "" || !response.expiresAt)
          throw new Error("CreateCheckout answered without a link or its expiry");
        return sendJson(reply, 201, {
          checkout_url: response.checkoutUrl,
          expires_at: formatTimestamp(response.expiresAt),
        });
      },
    );
}
