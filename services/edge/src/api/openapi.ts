import { type ErrorReason, errorCatalog } from "@gateway/platform";
import type { TSchema } from "@sinclair/typebox";
import { ALWAYS_POSSIBLE, type Operation, operations } from "./operations.js";
import { FieldViolation, Problem } from "./schemas/common.js";
import { CreateRefundBody, RefundResult } from "./schemas/refunds.js";
import { CheckoutLink, CreateSessionBody, LineItemInput, Session, SessionList } from "./schemas/sessions.js";
import { Delivery, DeliveryList } from "./schemas/webhooks.js";

/** Problem type URIs in examples: a real gateway answers with its own GATEWAY_ERRORS_URL. */
const EXAMPLE_ERRORS_URL = "https://gateway.example/errors";

/** Schemas shown once under components and referred to by name. */
const NAMED: Array<[string, TSchema]> = [
  ["CreateSessionBody", CreateSessionBody],
  ["LineItemInput", LineItemInput],
  ["Session", Session],
  ["SessionList", SessionList],
  ["CheckoutLink", CheckoutLink],
  ["CreateRefundBody", CreateRefundBody],
  ["RefundResult", RefundResult],
  ["Delivery", Delivery],
  ["DeliveryList", DeliveryList],
  ["FieldViolation", FieldViolation],
  ["Problem", Problem],
];

const PROBLEM_DETAILS: Record<ErrorReason, string> = {
  UNAUTHORIZED: "The API key is missing, malformed, expired or revoked.",
  FORBIDDEN: "Authenticated but not allowed.",
  NOT_FOUND: "No session with this id exists for this account and mode.",
  CONFLICT: "The merchant_reference (or Idempotency-Key) already names another request.",
  SESSION_TERMINAL: "The session is already terminal.",
  VALIDATION_ERROR: "One or more fields failed validation.",
  CHECKOUT_LIMIT_EXCEEDED: "Too many active checkouts on this session.",
  INVALID_STATE: "Not allowed in the session's current state.",
  NO_PAYMENT: "No successful payment to act on.",
  REFUND_FAILED: "The refund could not be completed.",
  NO_TERMINAL_CONFIGURED: "The account has no acquirer terminal in this mode.",
  TERMINAL_INACTIVE: "The account's acquirer terminal is inactive.",
  TERMINAL_REJECTED: "The acquirer rejected the terminal's credentials.",
  RATE_LIMIT_EXCEEDED: "Too many requests; retry after the Retry-After header's seconds.",
  PROCESSOR_UNAVAILABLE: "The acquirer is unreachable or timed out; retry.",
  SERVICE_UNAVAILABLE: "A gateway dependency is temporarily unavailable; retry after Retry-After.",
  INTERNAL:
    "An unexpected error occurred. Retry with backoff; if it persists, contact support quoting the Request-Id header.",
  BAD_REQUEST: "The request could not be read (not JSON, not UTF-8, not a JSON object).",
  PAYLOAD_TOO_LARGE: "The request body exceeds the limit.",
  UNSUPPORTED_MEDIA_TYPE: "Request bodies must be JSON, sent with Content-Type: application/json.",
  METHOD_NOT_ALLOWED: "The path exists but not with this method.",
};

function problemExample(reason: ErrorReason, path: string): Record<string, unknown> {
  const entry = errorCatalog[reason];
  const doc: Record<string, unknown> = {
    type: `${EXAMPLE_ERRORS_URL}/${entry.problemType}`,
    title: entry.title,
    status: entry.httpStatus,
    detail: PROBLEM_DETAILS[reason],
    instance: path,
  };
  if (reason === "VALIDATION_ERROR")
    doc.errors = [
      { field: "amount", code: "invalid_precision", message: "amount must have 3 decimal places in TND." },
    ];
  if (reason === "CONFLICT") doc.existing_session_id = "ps_8f2c1a9b4d7e6f30a1b2c3d4";
  return doc;
}

/** A TypeBox schema as plain JSON Schema 2020-12 (its symbol keys dropped), named ones by $ref. */
function jsonSchema(schema: TSchema, top = true): unknown {
  if (!top) {
    const named = NAMED.find(([, s]) => s === schema);
    if (named) return { $ref: `#/components/schemas/${named[0]}` };
  }
  if (Array.isArray(schema)) return schema.map((s) => jsonSchema(s as TSchema, false));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = value !== null && typeof value === "object" ? jsonSchema(value as TSchema, false) : value;
  }
  return out;
}

const openApiPath = (url: string): string => `/api/v1${url.replace(/:([a-z_]+)/g, "{$1}")}`;

function parameters(op: Operation): unknown[] {
  const out: unknown[] = [];
  const add = (where: "path" | "query", schema: TSchema | undefined) => {
    const properties = (schema?.properties ?? {}) as Record<string, TSchema>;
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = jsonSchema(property, false) as Record<string, unknown>;
      out.push({
        name,
        in: where,
        required: where === "path",
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add("path", op.request.params);
  add("query", op.request.querystring);
  for (const header of op.request.headers ?? []) {
    out.push({
      name: header.name,
      in: "header",
      required: false,
      description: header.description,
      schema: { type: "string" },
      example: header.example,
    });
  }
  return out;
}

function responses(op: Operation, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    out[status] = {
      description: response.description,
      content: {
        [response.contentType ?? "application/json"]: {
          schema: jsonSchema(response.schema, false),
          example: response.example,
        },
      },
      ...(response.links
        ? {
            links: Object.fromEntries(
              response.links.map((target: string) => [
                target,
                {
                  operationId: target,
                  parameters: { session_id: "$response.body#/id" },
                  description: `${operations[target as keyof typeof operations].summary} with this session's id.`,
                },
              ]),
            ),
          }
        : {}),
    };
  }
  const byStatus = new Map<number, ErrorReason[]>();
  for (const reason of [...op.problems, ...ALWAYS_POSSIBLE]) {
    const status = errorCatalog[reason].httpStatus;
    byStatus.set(status, [...(byStatus.get(status) ?? []), reason]);
  }
  for (const [status, reasons] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: reasons.map((r) => `\`${errorCatalog[r].problemType}\`: ${PROBLEM_DETAILS[r]}`).join(" "),
      ...(status === 429 || status === 503
        ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } }
        : {}),
      content: {
        "application/problem+json": {
          schema: { $ref: "#/components/schemas/Problem" },
          examples: Object.fromEntries(
            reasons.map((r) => [
              errorCatalog[r].problemType,
              { value: problemExample(r, path.replace("{session_id}", "ps_8f2c1a9b4d7e6f30a1b2c3d4")) },
            ]),
          ),
        },
      },
    };
  }
  return out;
}

/**
 * The OpenAPI 3.1 document of the public REST API, made from the same operations table and
 * schemas that validate requests, so the two cannot drift. Written to docs/api/openapi.json by
 * `npm run docs:openapi`, served at GET /api/v1/openapi.json and rendered at /docs.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of Object.values(operations) as Operation[]) {
    const path = openApiPath(op.url);
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: op.tags,
      parameters: parameters(op),
      ...(op.request.body
        ? {
            requestBody: {
              required: op.request.body !== operations.cancelSession.request.body,
              content: {
                "application/json": {
                  schema: jsonSchema(op.request.body, false),
                  example: op.request.bodyExample,
                },
              },
            },
          }
        : {}),
      responses: responses(op, path),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Payment gateway REST API",
      version: "1.0.0",
      description:
        "Hosted-checkout payment sessions, refunds and webhook delivery history. Authenticate with an API key as a Bearer token " +
        "(`sk_test_…` or `sk_live_…`; the key's mode is the mode of everything it touches). Amounts are decimal strings. " +
        "Every error is an RFC 9457 problem document (`application/problem+json`) whose `type` is `{errors_url}/<suffix>`; " +
        "a validation-error carries at most 50 `errors` and counts the rest in `errors_omitted`. " +
        "This document is generated from the schemas that validate requests.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: [
      { name: "Sessions", description: "Payment sessions and their hosted checkout links." },
      { name: "Refunds", description: "Refunds of succeeded sessions." },
      { name: "Webhooks", description: "History of webhook deliveries." },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `Authorization: Bearer sk_test_…`.",
        },
      },
      schemas: Object.fromEntries(NAMED.map(([name, schema]) => [name, jsonSchema(schema)])),
    },
    "x-problem-types": Object.fromEntries(
      (Object.keys(errorCatalog) as ErrorReason[]).map((r) => [
        errorCatalog[r].problemType,
        { status: errorCatalog[r].httpStatus, title: errorCatalog[r].title, description: PROBLEM_DETAILS[r] },
      ]),
    ),
  };
}

/** The document as committed in docs/api/openapi.json. */
export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
