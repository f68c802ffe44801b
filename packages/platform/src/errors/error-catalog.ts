import { Code } from "@connectrpc/connect";

/**
 * The one table that maps every domain error reason to its gRPC code and to the problem
 * document the edge answers with (docs/api/errors.md#problem-types). Services raise reasons; the edge looks them up.
 * Adding an error means adding a row here, nowhere else.
 */
export const errorCatalog = {
  UNAUTHORIZED: {
    code: Code.Unauthenticated,
    problemType: "unauthorized",
    httpStatus: 401,
    title: "Unauthorized",
  },
  FORBIDDEN: { code: Code.PermissionDenied, problemType: "forbidden", httpStatus: 403, title: "Forbidden" },
  NOT_FOUND: { code: Code.NotFound, problemType: "not-found", httpStatus: 404, title: "Not Found" },
  CONFLICT: { code: Code.AlreadyExists, problemType: "conflict", httpStatus: 409, title: "Conflict" },
  SESSION_TERMINAL: {
    code: Code.FailedPrecondition,
    problemType: "session-terminal",
    httpStatus: 409,
    title: "Session Terminal",
  },
  VALIDATION_ERROR: {
    code: Code.InvalidArgument,
    problemType: "validation-error",
    httpStatus: 422,
    title: "Validation Error",
  },
  CHECKOUT_LIMIT_EXCEEDED: {
    code: Code.ResourceExhausted,
    problemType: "checkout-limit-exceeded",
    httpStatus: 422,
    title: "Checkout Limit Exceeded",
  },
  INVALID_STATE: {
    code: Code.FailedPrecondition,
    problemType: "invalid-state",
    httpStatus: 422,
    title: "Invalid State",
  },
  NO_PAYMENT: {
    code: Code.FailedPrecondition,
    problemType: "no-payment",
    httpStatus: 422,
    title: "No Payment",
  },
  REFUND_FAILED: {
    code: Code.FailedPrecondition,
    problemType: "refund-failed",
    httpStatus: 422,
    title: "Refund Failed",
  },
  NO_TERMINAL_CONFIGURED: {
    code: Code.FailedPrecondition,
    problemType: "no-terminal-configured",
    httpStatus: 422,
    title: "No Terminal Configured",
  },
  TERMINAL_INACTIVE: {
    code: Code.FailedPrecondition,
    problemType: "terminal-inactive",
    httpStatus: 422,
    title: "Terminal Inactive",
  },
  TERMINAL_REJECTED: {
    code: Code.FailedPrecondition,
    problemType: "terminal-rejected",
    httpStatus: 422,
    title: "Terminal Rejected",
  },
  RATE_LIMIT_EXCEEDED: {
    code: Code.ResourceExhausted,
    problemType: "rate-limit-exceeded",
    httpStatus: 429,
    title: "Rate Limit Exceeded",
  },
  PROCESSOR_UNAVAILABLE: {
    code: Code.Unavailable,
    problemType: "processor-unavailable",
    httpStatus: 502,
    title: "Processor Unavailable",
  },
  // Not in the product's original list (docs/decisions.md#rest-contract): an internal dependency (a gateway service, MongoDB, NATS) is unreachable.
  // Retryable, answered with Retry-After; see docs/decisions.md.
  SERVICE_UNAVAILABLE: {
    code: Code.Unavailable,
    problemType: "service-unavailable",
    httpStatus: 503,
    title: "Service Unavailable",
  },
  INTERNAL: {
    code: Code.Internal,
    problemType: "internal-error",
    httpStatus: 500,
    title: "Internal Server Error",
  },
  // Edge-only transport errors (spec: malformed JSON, oversized body, wrong route are problem documents).
  BAD_REQUEST: {
    code: Code.InvalidArgument,
    problemType: "bad-request",
    httpStatus: 400,
    title: "Bad Request",
  },
  PAYLOAD_TOO_LARGE: {
    code: Code.InvalidArgument,
    problemType: "payload-too-large",
    httpStatus: 413,
    title: "Payload Too Large",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    code: Code.InvalidArgument,
    problemType: "unsupported-media-type",
    httpStatus: 415,
    title: "Unsupported Media Type",
  },
  METHOD_NOT_ALLOWED: {
    code: Code.Unimplemented,
    problemType: "method-not-allowed",
    httpStatus: 405,
    title: "Method Not Allowed",
  },
} as const;

export type ErrorReason = keyof typeof errorCatalog;
export type CatalogEntry = (typeof errorCatalog)[ErrorReason];

export function isErrorReason(value: string): value is ErrorReason {
  return Object.hasOwn(errorCatalog, value);
}
