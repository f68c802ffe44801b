import { STATUS_CODES } from "node:http";
import { ForbiddenAddressError } from "./ssrf-lookup.js";

/** Raised by the delivery's own timer, so a timeout reads differently from a network error. */
export class DeliveryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
    this.name = "DeliveryTimeoutError";
  }
}

const TLS_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "EPROTO",
]);

/**
 * Why a delivery failed, as a bounded label for metrics (`gateway_webhook_failures_total`).
 * Never shown to merchants: it tells DNS failures from refused addresses.
 */
export type FailureCause =
  | "forbidden_address"
  | "dns"
  | "refused"
  | "reset"
  | "unreachable"
  | "timeout"
  | "tls"
  | "invalid_response"
  | "http_status"
  | "redirect"
  | "invalid_request"
  | "other";

/** A failure as each audience sees it. */
export interface FailureDescription {
  /** The delivery's `error_message`, shown to the merchant: neutral, no network facts. */
  message: string;
  /** For operators (logs): the precise cause, with the address or the system error code. */
  detail: string;
  cause: FailureCause;
}

/**
 * Every way of not reaching the endpoint reads the same to a merchant: a refused private
 * address, an unknown host name, a refused or unreachable port. Telling them apart would let a
 * merchant map the gateway's network (which internal names exist, what they resolve to).
 */
export const UNREACHABLE_MESSAGE = "Could not connect to the endpoint";

/** The merchant's and the operator's views of a network error on the way to `hostname`. */
export function describeNetworkError(err: unknown, hostname: string): FailureDescription {
  const unreachable = (cause: FailureCause, detail: string): FailureDescription => ({
    message: UNREACHABLE_MESSAGE,
    detail,
    cause,
  });
  if (err instanceof ForbiddenAddressError) return unreachable("forbidden_address", err.message);
  if (err instanceof DeliveryTimeoutError) {
    return { message: err.message, detail: `${err.message} (${hostname})`, cause: "timeout" };
  }
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case "ECONNREFUSED":
      return unreachable("refused", `Connection refused by ${hostname}`);
    case "ECONNRESET":
    case "EPIPE":
      return {
        message: "Connection reset by the receiver",
        detail: `Connection reset by ${hostname} (${code})`,
        cause: "reset",
      };
    case "ENOTFOUND":
      return unreachable("dns", `Could not resolve host ${hostname}`);
    case "EAI_AGAIN":
      return unreachable("dns", `Temporary DNS failure resolving ${hostname}`);
    case "ETIMEDOUT":
      return unreachable("unreachable", `Connection to ${hostname} timed out`);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return unreachable("unreachable", `${hostname} unreachable (${code})`);
  }
  if (
    typeof code === "string" &&
    (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_"))
  ) {
    // About the merchant's own certificate: worth telling them.
    return { message: `TLS error (${code})`, detail: `TLS error with ${hostname} (${code})`, cause: "tls" };
  }
  if (typeof code === "string" && code.startsWith("HPE_")) {
    return {
      message: "Invalid HTTP response from the receiver",
      detail: `Invalid HTTP response from ${hostname} (${code})`,
      cause: "invalid_response",
    };
  }
  return unreachable(
    "other",
    typeof code === "string"
      ? `Connection error with ${hostname} (${code})`
      : `Connection error with ${hostname}`,
  );
}

export function describeStatus(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}
