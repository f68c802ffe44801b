import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { JsonOutput } from "@gateway/platform";
import { type FieldViolation, GatewayError } from "@gateway/platform";
import {
  type AccountScope,
  type Delivery,
  DeliveryStatus,
  type ListDeliveriesRequest,
  ListDeliveriesRequestSchema,
  PageRequestSchema,
  type SessionService,
  type WebhookService,
} from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { routeSchema } from "../api/operations.js";
import { requireCaller } from "../auth/authenticated-caller.js";
import { sendJson } from "../http/send-json.js";
import { violation } from "../mapping/field-violations.js";
import { applyPageParam } from "../mapping/page-query.js";
import { formatTimestamp } from "../mapping/rfc3339.js";

export interface WebhookRoutesDeps {
  sessions: Client<typeof SessionService>;
  webhooks: Client<typeof WebhookService>;
}

export const DEFAULT_DELIVERY_LIMIT = 20;
const MAX_EVENT_ID_LENGTH = 64;
/** The event types of docs/api/webhooks.md#event-types: a filter on anything else is a typo, answered 422. */
export const WEBHOOK_EVENT_NAMES = [
  "session.succeeded",
  "session.failed",
  "session.expired",
  "checkout.session.expired",
  // Beyond the product's original list (docs/decisions.md#webhooks): a late payment given back, a refund's outcome.
  "session.late_payment_returned",
  "refund.succeeded",
  "refund.failed",
  // The dashboard's test event (docs/api/webhooks.md#event-subscriptions); it belongs to no session.
  "webhook.test",
];

/** Delivery status names of the API ("PENDING", …) and their proto values. */
export const DELIVERY_STATUS_BY_NAME = new Map(
  Object.values(DeliveryStatus)
    .filter(
      (value): value is DeliveryStatus => typeof value === "number" && value !== DeliveryStatus.UNSPECIFIED,
    )
    .map((value) => [DeliveryStatus[value], value] as const),
);

const text = (value: string): string | null => (value === "" ? null : value);

/**
 * A delivery record as docs/api/webhooks.md#the-delivery-record lists it, in its field order; unset optional figures are null
 * (and `url` is null when no endpoint was configured).
 */
export function deliveryToJson(d: Delivery | undefined): JsonOutput {
  if (!d) throw new Error("webhooks service answered without a delivery");
  return {
    id: d.id,
    session_id: d.sessionId,
    event: d.event,
    event_id: text(d.eventId),
    url: text(d.url),
    attempt_number: d.attemptNumber,
    status: d.status === DeliveryStatus.UNSPECIFIED ? null : (DeliveryStatus[d.status] ?? null),
    http_status_code: d.httpStatusCode ?? null,
    response_time_ms: d.responseTimeMs ?? null,
    error_message: text(d.errorMessage),
    next_retry_at: formatTimestamp(d.nextRetryAt),
    created_at: formatTimestamp(d.createdAt),
  };
}

/** Sets one filter; returns why the value is refused, if it is. */
function applyParam(request: ListDeliveriesRequest, name: string, raw: string): string | undefined {
  const pageProblem = applyPageParam(request.page!, name, raw);
  if (pageProblem !== null) return pageProblem;
  switch (name) {
    case "status": {
      const status = DELIVERY_STATUS_BY_NAME.get(raw);
      if (status === undefined) return `Must be one of ${[...DELIVERY_STATUS_BY_NAME.keys()].join(", ")}.`;
      request.status = status;
      return undefined;
    }
    case "event":
      if (!WEBHOOK_EVENT_NAMES.includes(raw)) return `Must be one of ${WEBHOOK_EVENT_NAMES.join(", ")}.`;
      request.event = raw;
      return undefined;
    case "session_id":
      if (raw === "") return "Must not be empty.";
      request.sessionId = raw;
      return undefined;
    case "event_id":
      if (raw === "" || raw.length > MAX_EVENT_ID_LENGTH)
        return `Must be an event id of 1 to ${MAX_EVENT_ID_LENGTH} characters.`;
      request.eventId = raw;
      return undefined;
    default:
      return "Unknown query parameter.";
  }
}

/**
 * Maps a deliveries list query (docs/api/webhooks.md#delivery-history) to ListDeliveriesRequest.
 * Every bad value, repeated parameter and unknown parameter is a 422 on that parameter.
 */
export function mapListDeliveriesQuery(
  query: Record<string, unknown>,
  scope: AccountScope,
  known: readonly string[],
): ListDeliveriesRequest {
  const violations: FieldViolation[] = [];
  const request = create(ListDeliveriesRequestSchema, {
    scope,
    page: create(PageRequestSchema, { limit: DEFAULT_DELIVERY_LIMIT }),
  });
  for (const [name, raw] of Object.entries(query)) {
    if (!known.includes(name)) violations.push(violation.invalid(name, "Unknown query parameter."));
    else if (typeof raw !== "string") violations.push(violation.invalid(name, "Give this parameter once."));
    else {
      const problem = applyParam(request, name, raw);
      if (problem) violations.push(violation.invalid(name, problem));
    }
  }
  if (violations.length > 0) throw GatewayError.validation(violations);
  return request;
}

const ACCOUNT_PARAMS = ["limit", "starting_after", "status", "event", "session_id", "event_id"];
// The session is the path's: a session_id parameter would only contradict it.
const SESSION_PARAMS = ["limit", "starting_after", "status", "event", "event_id"];

async function listPage(
  webhooks: Client<typeof WebhookService>,
  request: ListDeliveriesRequest,
): Promise<JsonOutput> {
  const response = await webhooks.listDeliveries(request);
  const hasMore = response.pageInfo?.hasMore ?? false;
  const nextCursor = response.pageInfo?.nextCursor ?? "";
  return {
    data: response.deliveries.map(deliveryToJson),
    has_more: hasMore,
    next_cursor: hasMore && nextCursor !== "" ? nextCursor : null,
  };
}

/**
 * Delivery history (docs/api/webhooks.md#delivery-history), registered under /api/v1 behind
 * the API key hook: `{data, has_more, next_cursor}`, most recent first.
 */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRoutesDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    "/gateway/sessions/:session_id/webhooks/",
    { schema: routeSchema("listSessionDeliveries") },
    async (request, reply) => {
      const { scope } = requireCaller(request);
      const listRequest = mapListDeliveriesQuery(
        request.query as Record<string, unknown>,
        scope,
        SESSION_PARAMS,
      );
      // 404 for a session that is not this account's (docs/api/webhooks.md#delivery-history), before any history is read.
      await deps.sessions.getSession({ scope, sessionId: request.params.session_id });
      listRequest.sessionId = request.params.session_id;
      return sendJson(reply, 200, await listPage(deps.webhooks, listRequest));
    },
  );

  api.get("/gateway/webhooks/", { schema: routeSchema("listDeliveries") }, async (request, reply) => {
    const { scope } = requireCaller(request);
    const listRequest = mapListDeliveriesQuery(
      request.query as Record<string, unknown>,
      scope,
      ACCOUNT_PARAMS,
    );
    return sendJson(reply, 200, await listPage(deps.webhooks, listRequest));
  });

  // docs/api/webhooks.md#resend: the merchant's own resend, scoped to the key's account and mode
  // (another account's delivery id is a 404, as an unknown one). No body, an empty body or `{}`.
  api.post(
    "/gateway/webhooks/:delivery_id/resend/",
    { schema: routeSchema("resendDelivery") },
    async (request, reply) => {
      const { scope } = requireCaller(request);
      const response = await deps.webhooks.resendDelivery({ deliveryId: request.params.delivery_id, scope });
      return sendJson(reply, 202, deliveryToJson(response.delivery));
    },
  );
}
