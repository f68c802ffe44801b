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
 * The `error_message` of a failed delivery, shown to the merchant: says what went wrong on the
 * way to their endpoint without internal details (no stack, no local addresses).
 */
export function describeNetworkError(err: unknown, hostname: string): string {
  if (err instanceof ForbiddenAddressError || err instanceof DeliveryTimeoutError) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case "ECONNREFUSED":
      return "Connection refused";
    case "ECONNRESET":
    case "EPIPE":
      return "Connection reset by the receiver";
    case "ENOTFOUND":
      return `Could not resolve host ${hostname}`;
    case "EAI_AGAIN":
      return `Temporary DNS failure resolving ${hostname}`;
    case "ETIMEDOUT":
      return "Connection timed out";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `Receiver unreachable (${code})`;
  }
  if (typeof code === "string" && (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_"))) {
    return `TLS error (${code})`;
  }
  if (typeof code === "string" && code.startsWith("HPE_")) return "Invalid HTTP response from the receiver";
  return typeof code === "string" ? `Connection error (${code})` : "Connection error";
}

export function describeStatus(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}
