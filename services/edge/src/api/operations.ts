import type { ErrorReason } from "@gateway/platform";
import type { TSchema } from "@sinclair/typebox";
import * as ex from "./examples.js";
import { NoBody, SessionIdParams } from "./schemas/common.js";
import { CreateRefundBody, RefundResult } from "./schemas/refunds.js";
import {
  CheckoutLink,
  CreateSessionBody,
  ListSessionsQuery,
  Session,
  SessionList,
} from "./schemas/sessions.js";
import {
  AccountDeliveriesQuery,
  Delivery,
  DeliveryIdParams,
  DeliveryList,
  EventStream,
  SessionDeliveriesQuery,
} from "./schemas/webhooks.js";

export interface OperationResponse {
  description: string;
  schema: TSchema;
  example: unknown;
  /** The answer's media type; default application/json. */
  contentType?: string;
  /** OpenAPI links: operations that take this answer's session id (create → retrieve → cancel → refund). */
  links?: string[];
}

/**
 * One public REST operation: its route, the schemas that validate its request (they are the
 * route's fastify schema), what it answers, and the problems it can answer with. The routes
 * and the OpenAPI document (docs/api/openapi.json) are both made from this one table.
 */
export interface Operation {
  operationId: string;
  method: "GET" | "POST";
  /** Under /api/v1, in fastify's syntax (`:session_id`), trailing slash as docs/api/README.md writes every path. */
  url: string;
  summary: string;
  description: string;
  tags: string[];
  request: {
    params?: TSchema;
    querystring?: TSchema;
    body?: TSchema;
    bodyExample?: unknown;
    headers?: Array<{ name: string; description: string; example: string }>;
  };
  responses: Record<number, OperationResponse>;
  /** Problem documents besides those of every operation (401, 429, 500, 503). */
  problems: ErrorReason[];
}

/** What a merchant does next with a session it created. */
const SESSION_LINKS = [
  "getSession",
  "cancelSession",
  "createCheckoutLink",
  "createRefund",
  "listSessionDeliveries",
];

export const ALWAYS_POSSIBLE: ErrorReason[] = [
  "UNAUTHORIZED",
  "RATE_LIMIT_EXCEEDED",
  "INTERNAL",
  "SERVICE_UNAVAILABLE",
];

export const operations = {
  createSession: {
    operationId: "createSession",
    method: "POST",
    url: "/gateway/sessions/",
    summary: "Create a payment session",
    description:
      "Creates a session and its hosted checkout link (201). A repeat with the same merchant_reference and the same meaning answers the first session (200); with another meaning it is 409 conflict.",
    tags: ["Sessions"],
    request: { body: CreateSessionBody, bodyExample: ex.createSessionExample },
    responses: {
      201: {
        description: "Created; `Location` names the session.",
        schema: Session,
        example: ex.sessionExample,
        links: SESSION_LINKS,
      },
      200: {
        description: "An idempotent repeat: the first session.",
        schema: Session,
        example: ex.sessionExample,
        links: SESSION_LINKS,
      },
    },
    problems: [
      "BAD_REQUEST",
      "UNSUPPORTED_MEDIA_TYPE",
      "PAYLOAD_TOO_LARGE",
      "VALIDATION_ERROR",
      "CONFLICT",
      "NO_TERMINAL_CONFIGURED",
      "TERMINAL_INACTIVE",
    ],
  },
  listSessions: {
    operationId: "listSessions",
    method: "GET",
    url: "/gateway/sessions/list/",
    summary: "List sessions",
    description: "This account's sessions in this mode, most recent first, a page at a time.",
    tags: ["Sessions"],
    request: { querystring: ListSessionsQuery },
    responses: {
      200: { description: "A page of sessions.", schema: SessionList, example: ex.sessionListExample },
    },
    problems: ["VALIDATION_ERROR"],
  },
  getSession: {
    operationId: "getSession",
    method: "GET",
    url: "/gateway/sessions/:session_id/",
    summary: "Retrieve a session",
    description: "The session detail; 404 for a session of another account or mode.",
    tags: ["Sessions"],
    request: { params: SessionIdParams },
    responses: {
      200: {
        description: "The session.",
        schema: Session,
        example: ex.sessionExample,
        links: ["cancelSession", "createRefund"],
      },
    },
    problems: ["NOT_FOUND"],
  },
  cancelSession: {
    operationId: "cancelSession",
    method: "POST",
    url: "/gateway/sessions/:session_id/cancel/",
    summary: "Cancel a session",
    description: "Cancels a session that is not yet terminal. No body, an empty body or `{}`.",
    tags: ["Sessions"],
    request: { params: SessionIdParams, body: NoBody, bodyExample: {} },
    responses: {
      200: { description: "The canceled session.", schema: Session, example: ex.canceledSessionExample },
    },
    problems: ["BAD_REQUEST", "VALIDATION_ERROR", "NOT_FOUND", "SESSION_TERMINAL"],
  },
  createCheckoutLink: {
    operationId: "createCheckoutLink",
    method: "POST",
    url: "/gateway/sessions/:session_id/checkout/",
    summary: "Mint a new checkout link",
    description: "A new hosted checkout link for a payable session. No body, an empty body or `{}`.",
    tags: ["Sessions"],
    request: { params: SessionIdParams, body: NoBody, bodyExample: {} },
    responses: {
      201: {
        description: "The new link and its expiry.",
        schema: CheckoutLink,
        example: ex.checkoutLinkExample,
      },
    },
    problems: ["BAD_REQUEST", "VALIDATION_ERROR", "NOT_FOUND", "SESSION_TERMINAL", "CHECKOUT_LIMIT_EXCEEDED"],
  },
  createRefund: {
    operationId: "createRefund",
    method: "POST",
    url: "/gateway/sessions/:session_id/refund/",
    summary: "Refund a session",
    description:
      "A FULL or PARTIAL refund of a succeeded session. With an Idempotency-Key, a repeat answers the first refund; the same key with another request is 409.",
    tags: ["Refunds"],
    request: {
      params: SessionIdParams,
      body: CreateRefundBody,
      bodyExample: ex.createRefundExample,
      headers: [
        {
          name: "Idempotency-Key",
          description: "1-255 printable characters; repeats answer the first refund.",
          example: "refund-order-1042-1",
        },
      ],
    },
    responses: {
      201: {
        description: "The refund (automated or left to operations).",
        schema: RefundResult,
        example: ex.refundResultExample,
      },
    },
    problems: [
      "BAD_REQUEST",
      "UNSUPPORTED_MEDIA_TYPE",
      "VALIDATION_ERROR",
      "NOT_FOUND",
      "CONFLICT",
      "INVALID_STATE",
      "NO_PAYMENT",
      "REFUND_FAILED",
      "PROCESSOR_UNAVAILABLE",
    ],
  },
  listSessionDeliveries: {
    operationId: "listSessionDeliveries",
    method: "GET",
    url: "/gateway/sessions/:session_id/webhooks/",
    summary: "Webhook deliveries of a session",
    description: "Delivery history of one session's events, most recent first.",
    tags: ["Webhooks"],
    request: { params: SessionIdParams, querystring: SessionDeliveriesQuery },
    responses: {
      200: { description: "A page of deliveries.", schema: DeliveryList, example: ex.deliveryListExample },
    },
    problems: ["VALIDATION_ERROR", "NOT_FOUND"],
  },
  listDeliveries: {
    operationId: "listDeliveries",
    method: "GET",
    url: "/gateway/webhooks/",
    summary: "Webhook deliveries of the account",
    description: "Delivery history of this account's events in this mode, most recent first.",
    tags: ["Webhooks"],
    request: { querystring: AccountDeliveriesQuery },
    responses: {
      200: { description: "A page of deliveries.", schema: DeliveryList, example: ex.deliveryListExample },
    },
    problems: ["VALIDATION_ERROR"],
  },
  resendDelivery: {
    operationId: "resendDelivery",
    method: "POST",
    url: "/gateway/webhooks/:delivery_id/resend/",
    summary: "Resend a webhook",
    description:
      "Sends the delivery's event again now, as a new attempt (same body and webhook-id, signed when sent, to the URL that applies now); it is not retried automatically. Test and live deliveries follow the key's mode.",
    tags: ["Webhooks"],
    request: { params: DeliveryIdParams, body: NoBody, bodyExample: {} },
    responses: {
      202: { description: "The new attempt, PENDING.", schema: Delivery, example: ex.resentDeliveryExample },
    },
    problems: ["BAD_REQUEST", "VALIDATION_ERROR", "NOT_FOUND"],
  },
  streamEvents: {
    operationId: "streamEvents",
    method: "GET",
    url: "/gateway/events/stream/",
    summary: "Listen to test-mode events",
    description:
      "The account's test-mode events as they happen, as server-sent events (`id`, `event`, and `data` holding the webhook body), for `gateway listen`. The stream starts with a `: connected` comment once it is listening and sends a `: ping` comment every 15 s. Best effort: events are not replayed; webhooks stay the authoritative channel. Test keys only; at most 5 streams per account.",
    tags: ["Webhooks"],
    request: {},
    responses: {
      200: {
        description: "A stream of server-sent events that stays open.",
        contentType: "text/event-stream",
        schema: EventStream,
        example: ex.eventStreamExample,
      },
    },
    problems: ["FORBIDDEN", "CONFLICT"],
  },
} satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

type RequestOf<K extends OperationId> = (typeof operations)[K]["request"];
export type RouteSchema<K extends OperationId> = Pick<
  RequestOf<K>,
  Extract<keyof RequestOf<K>, "params" | "querystring" | "body">
>;

/**
 * The fastify route schema of an operation: its request schemas, validated by
 * schemaValidatorCompiler and typed by @fastify/type-provider-typebox.
 */
export function routeSchema<K extends OperationId>(id: K): RouteSchema<K> {
  const { params, querystring, body } = operations[id].request as Operation["request"];
  return {
    ...(params ? { params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(body ? { body } : {}),
  } as RouteSchema<K>;
}
