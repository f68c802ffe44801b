import type { Client } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { FieldViolationSchema, type RefundService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { requireCaller } from "../auth/authenticated-caller.js";
import { requireJsonObjectBody } from "../http/json-body.js";
import { readIdempotencyKey } from "../http/idempotency-key.js";
import { sendJson } from "../http/send-json.js";
import { mapCreateRefundBody } from "../mapping/create-refund-request.js";
import { refundResultToJson } from "../mapping/refund-json.js";

/**
 * Refund endpoint (docs/api/refunds.md#create-a-refund), registered under /api/v1 behind the API
 * key hook, path exactly as docs/api/README.md writes it. The refunds service decides everything (session
 * state, balance, amount rules, 404 for another account's session); the edge maps JSON.
 */
export function registerRefundRoutes(api: FastifyInstance, refunds: Client<typeof RefundService>): void {
  api.post<{ Params: { session_id: string } }>("/gateway/sessions/:session_id/refund/", async (request, reply) => {
    const { scope } = requireCaller(request);
    const body = requireJsonObjectBody(request.body);
    const request$ = mapCreateRefundBody(body.value, body.text, scope, request.params.session_id);
    const idempotency = readIdempotencyKey(request.headers["idempotency-key"]);
    if (idempotency.key !== undefined) request$.idempotencyKey = idempotency.key;
    if (idempotency.violation) request$.inputViolations.push(create(FieldViolationSchema, idempotency.violation));
    // A repeat with the same Idempotency-Key answers the first refund, with the same 201.
    const response = await refunds.createRefund(request$);
    // 201 even when the acquirer could not confirm it: the refund exists, operations finish it (docs/api/refunds.md#create-a-refund).
    return sendJson(reply, 201, refundResultToJson(response.refund));
  });
}
