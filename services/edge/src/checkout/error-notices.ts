import { type ErrorReason, errorCatalog } from "@gateway/platform";
import type { Messages, Notice } from "./i18n/messages.js";

/** Which message a failed checkout request shows, and what the buyer can do next. */
export interface ErrorNotice {
  status: number;
  notice: Notice;
  /** Back to the checkout page (to retry or see the state) when the link token is known. */
  offerBack: "retry" | "status" | "none";
  /** Show the request id: the error is ours and worth reporting. */
  showReference: boolean;
}

/**
 * Service reasons (errorCatalog) -> the buyer's page. The HTTP status is the catalog's, so a page
 * answers like the API would (422 merchant configuration, 409 terminal session, 502 acquirer
 * down); the text speaks to a buyer, not a developer.
 */
export function errorNotice(reason: ErrorReason, m: Messages): ErrorNotice {
  const status = errorCatalog[reason].httpStatus;
  switch (reason) {
    case "NOT_FOUND":
      return { status, notice: m.notFound, offerBack: "none", showReference: false };
    case "NO_TERMINAL_CONFIGURED":
    case "TERMINAL_INACTIVE":
    case "TERMINAL_REJECTED":
      return { status, notice: m.merchantUnavailable, offerBack: "none", showReference: false };
    case "PROCESSOR_UNAVAILABLE":
      return { status, notice: m.processorUnavailable, offerBack: "retry", showReference: false };
    case "SESSION_TERMINAL":
      return { status, notice: m.alreadyClosed, offerBack: "status", showReference: false };
    case "CHECKOUT_LIMIT_EXCEEDED":
    case "INVALID_STATE":
    case "CONFLICT":
    case "NO_PAYMENT":
    case "FORBIDDEN":
    case "UNAUTHORIZED":
    case "VALIDATION_ERROR":
      return { status, notice: m.cannotStart, offerBack: "status", showReference: false };
    case "RATE_LIMIT_EXCEEDED":
      return { status, notice: m.tooManyRequests, offerBack: "retry", showReference: false };
    case "SERVICE_UNAVAILABLE":
      return { status, notice: m.serviceUnavailable, offerBack: "retry", showReference: false };
    case "BAD_REQUEST":
    case "PAYLOAD_TOO_LARGE":
    case "UNSUPPORTED_MEDIA_TYPE":
    case "METHOD_NOT_ALLOWED":
      return { status, notice: m.badRequest, offerBack: "status", showReference: false };
    case "REFUND_FAILED":
    case "INTERNAL":
      return { status, notice: m.unexpected, offerBack: "retry", showReference: true };
  }
}
