import type { Client } from "@connectrpc/connect";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { GatewayError } from "@gateway/platform";
import type { RefundService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { routeSchema } from "../api/operations.js";
import { requireCaller } from "../auth/authenticated-caller.js";
import { readIdempotencyKey } from "../http/idempotency-key.js";
import { rawBodyText } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import { mapCreateRefundBody } from "../mapping/create-refund-request.js";
import { refundResultToJson } from "../mapping/refund-json.js";

/**
 * Refund endpoint (docs/api/refunds.md#create-a-refund), registered under /api/v1 behind the API
 * key hook, path exactly as docs/api/README.md writes it. The refunds service decides everything (session
 * state, balance, amount rules, 404 for another account's session); the edge maps JSON.
 */
export function registerRefundRoutes(app: FastifyInstance, refunds: Client<typeof RefundService>): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(
    "/gateway/sessions/:session_id/refund/",
    { schema: routeSchema("createRefund") },
    async (request, reply) => {
      const { scope } = requireCaller(request);
      const idempotency = readIdempotencyKey(request.headers["idempotency-key"]);
      if (idempotency.violation) throw GatewayError.validation([idempotency.violation]);
      const request$ = mapCreateRefundBody(
        request.body,
        rawBodyText(request),
        scope,
        request.params.session_id,
      );
      if (idempotency.key !== undefined) request$.idempotencyKey = idempotency.key;
      // A repeat with the same Idempotency-Key answers the first refund, with the same 201.
      const response = await refunds.createRefund(request$);
      // 201 even when the acquirer could not confirm it: the refund exists, operations finish it (docs/api/refunds.md#create-a-refund).
      return sendJson(reply, 201, refundResultToJson(response.refund));
    },
  );
}
