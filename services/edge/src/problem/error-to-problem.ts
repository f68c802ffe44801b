import { ConnectError } from "@connectrpc/connect";
import { type ErrorReason, fromConnectError, GatewayError } from "@gateway/platform";
import type { ProblemInput } from "./problem-document.js";

/** How an error is answered and whether it deserves a log line of its own. */
export interface ClassifiedError {
  problem: ProblemInput;
  /** error: unexpected (a bug or a broken dependency); warn: a dependency is unavailable. */
  log: "none" | "warn" | "error";
  /** What to log: the underlying cause, never shown to the client. */
  cause: unknown;
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  headers: Record<string, string>;
}

export const GENERIC_DETAILS: Partial<Record<ErrorReason, string>> = {
  INTERNAL:
    "An unexpected error occurred. Retry with backoff; if it persists, contact support quoting the Request-Id header.",
  BAD_REQUEST: "The request could not be read.",
  UNSUPPORTED_MEDIA_TYPE: "Request bodies must be JSON, sent with Content-Type: application/json.",
  NOT_FOUND: "The requested resource does not exist.",
  UNAUTHORIZED: "The API key is missing, malformed, expired or revoked.",
};

interface FastifyLikeError {
  code?: unknown;
  statusCode?: unknown;
}

/**
 * Maps anything thrown while handling a request to the problem to answer with. Reasons come from
 * GatewayErrors (thrown by the edge itself or rebuilt from a service's ConnectError with
 * fromConnectError) and from fastify's own client errors; everything else is a 500 whose
 * details stay in the log.
 */
export function classifyError(err: unknown, maxBodyBytes: number): ClassifiedError {
  const gatewayError = toGatewayError(err);
  if (gatewayError) return classifyGatewayError(gatewayError);
  const fastifyReason = fastifyClientErrorReason(err as FastifyLikeError);
  if (fastifyReason) {
    const detail =
      fastifyReason === "PAYLOAD_TOO_LARGE"
        ? `The request body exceeds the limit of ${maxBodyBytes} bytes.`
        : (GENERIC_DETAILS[fastifyReason] ?? GENERIC_DETAILS.BAD_REQUEST!);
    return { problem: { reason: fastifyReason, detail }, log: "none", cause: err, headers: {} };
  }
  return {
    problem: { reason: "INTERNAL", detail: GENERIC_DETAILS.INTERNAL! },
    log: "error",
    cause: err,
    headers: {},
  };
}

function toGatewayError(err: unknown): GatewayError | undefined {
  if (err instanceof GatewayError) return err;
  if (err instanceof ConnectError) return fromConnectError(err);
  return undefined;
}

function classifyGatewayError(err: GatewayError): ClassifiedError {
  const headers: Record<string, string> = {};
  const problem: ProblemInput = {
    reason: err.reason,
    detail: err.message,
    violations: err.violations,
    metadata: err.metadata,
  };
  switch (err.reason) {
    case "INTERNAL":
      problem.detail = GENERIC_DETAILS.INTERNAL!;
      return { problem, log: "error", cause: err.cause ?? err, headers };
    case "SERVICE_UNAVAILABLE":
      headers["retry-after"] = "1";
      return { problem, log: "warn", cause: err.cause ?? err, headers };
    case "RATE_LIMIT_EXCEEDED":
      headers["retry-after"] = retryAfterSeconds(err.metadata.retry_after_seconds);
      break;
    case "UNAUTHORIZED":
      headers["www-authenticate"] = "Bearer";
      break;
    default:
      break;
  }
  return { problem, log: "none", cause: err, headers };
}

/** Whole seconds, at least 1 (Retry-After takes delta-seconds). */
function retryAfterSeconds(raw: string | undefined): string {
  const seconds = raw === undefined ? Number.NaN : Math.ceil(Number(raw));
  return Number.isFinite(seconds) && seconds >= 1 ? String(seconds) : "1";
}

function fastifyClientErrorReason(err: FastifyLikeError | null | undefined): ErrorReason | undefined {
  if (err === null || typeof err !== "object") return undefined;
  switch (err.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return "PAYLOAD_TOO_LARGE";
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "UNSUPPORTED_MEDIA_TYPE";
    // A path parameter longer than the router accepts cannot name an existing resource.
    case "FST_ERR_MAX_PARAM_LENGTH":
      return "NOT_FOUND";
    default:
      break;
  }
  const status = err.statusCode;
  if (typeof status !== "number" || status < 400 || status >= 500) return undefined;
  if (status === 404) return "NOT_FOUND";
  if (status === 413) return "PAYLOAD_TOO_LARGE";
  if (status === 415) return "UNSUPPORTED_MEDIA_TYPE";
  return "BAD_REQUEST";
}
