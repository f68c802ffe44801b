import type { Client } from "@connectrpc/connect";
import { type FieldViolation, GatewayError } from "@gateway/platform";
import { ManualOutcome, type RefundService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { requireJsonObjectBody } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import { violation } from "../mapping/field-violations.js";
import { MAX_LIST_LIMIT } from "../mapping/page-query.js";
import { adminRefundToJson } from "../mapping/refund-json.js";

export const DEFAULT_MANUAL_LIMIT = 20;
const OUTCOMES: Record<string, ManualOutcome> = {
  SUCCEEDED: ManualOutcome.SUCCEEDED,
  FAILED: ManualOutcome.FAILED,
};

/**
 * `limit` is the only parameter: ListManualRefunds takes no account filter and no cursor (the
 * queue is oldest first and shrinks as refunds are resolved, so the next page is the first one
 * again). Anything else is refused rather than silently ignored.
 */
function manualLimit(query: Record<string, unknown>): number {
  const violations: FieldViolation[] = [];
  let limit = DEFAULT_MANUAL_LIMIT;
  for (const [name, raw] of Object.entries(query)) {
    if (name !== "limit") violations.push(violation.invalid(name, "Unknown query parameter."));
    else if (
      typeof raw !== "string" ||
      !/^\d{1,3}$/.test(raw) ||
      Number(raw) < 1 ||
      Number(raw) > MAX_LIST_LIMIT
    ) {
      violations.push(violation.invalid("limit", `Must be an integer from 1 to ${MAX_LIST_LIMIT}.`));
    } else limit = Number(raw);
  }
  if (violations.length > 0) throw GatewayError.validation(violations);
  return limit;
}

function readResolution(body: Record<string, unknown>): { outcome: ManualOutcome; note: string } {
  const violations: FieldViolation[] = [];
  const outcomeName = body.outcome ?? null;
  const outcome =
    typeof outcomeName === "string" && Object.hasOwn(OUTCOMES, outcomeName)
      ? OUTCOMES[outcomeName]
      : undefined;
  if (outcomeName === null) violations.push(violation.required("outcome"));
  else if (outcome === undefined)
    violations.push(violation.invalid("outcome", 'Must be "SUCCEEDED" or "FAILED".'));
  const note = body.note ?? null;
  if (note !== null && typeof note !== "string") violations.push(violation.notString("note"));
  for (const name of Object.keys(body))
    if (name !== "outcome" && name !== "note") violations.push(violation.unknown(name));
  if (violations.length > 0 || outcome === undefined) throw GatewayError.validation(violations);
  return { outcome, note: typeof note === "string" ? note : "" };
}

/**
 * Operations' manual refund queue on the admin API. Register inside the /admin/v1 plugin, after
 * its admin-token guard: these calls act across every merchant account.
 */
export function registerAdminRefundRoutes(
  admin: FastifyInstance,
  refunds: Client<typeof RefundService>,
): void {
  admin.get("/refunds/manual", async (request, reply) => {
    const limit = manualLimit(request.query as Record<string, unknown>);
    // One more than shown tells whether more are waiting.
    const response = await refunds.listManualRefunds({ limit: limit + 1 });
    return sendJson(reply, 200, {
      data: response.refunds.slice(0, limit).map(adminRefundToJson),
      has_more: response.refunds.length > limit,
    });
  });

  admin.post<{ Params: { refund_id: string } }>("/refunds/:refund_id/resolution", async (request, reply) => {
    const { outcome, note } = readResolution(requireJsonObjectBody(request.body).value);
    const response = await refunds.resolveManualRefund({ refundId: request.params.refund_id, outcome, note });
    return sendJson(reply, 200, adminRefundToJson(response.refund));
  });
}
