import { type ErrorReason, GatewayError } from "@gateway/platform";
import { EPG_ERROR, type EpgOperation } from "./epg-protocol.js";

// How an acquirer answer becomes a GatewayError. Two kinds of failure:
//
// 1. Transport: the acquirer did not give a readable answer.
//    | what happened                         | reason                | outcome (register/refund/reverse) |
//    |---------------------------------------|-----------------------|-----------------------------------|
//    | no answer within the timeout          | PROCESSOR_UNAVAILABLE | unknown (it may have happened)    |
//    | connection refused / host not found   | PROCESSOR_UNAVAILABLE | not_performed (nothing was sent)  |
//    | connection broken after sending       | PROCESSOR_UNAVAILABLE | unknown                           |
//    | HTTP 401 or 403                       | TERMINAL_REJECTED     | -                                 |
//    | HTTP 5xx                              | PROCESSOR_UNAVAILABLE | unknown                           |
//    | other HTTP status, or not JSON        | PROCESSOR_UNAVAILABLE | unknown                           |
//
// 2. Protocol: a JSON answer whose errorCode is not 0. errorCode 5 is "Access denied" for bad
//    credentials but also "wrong value of a parameter", so its errorMessage decides (the one
//    place a message is read: the protocol gives nothing else). Credentials -> TERMINAL_REJECTED
//    on every operation. The rest, per operation:
//
//    | errorCode | register.do                   | getOrderStatusExtended.do | refund.do     | reverse.do    |
//    |-----------|-------------------------------|---------------------------|---------------|---------------|
//    | 1         | CONFLICT (order number used)  | NOT_FOUND (no order id)   | REFUND_FAILED | INVALID_STATE |
//    | 3         | TERMINAL_REJECTED (currency)  | PROCESSOR_UNAVAILABLE     | REFUND_FAILED | INVALID_STATE |
//    | 4         | TERMINAL_REJECTED (parameter) | NOT_FOUND                 | REFUND_FAILED | INVALID_STATE |
//    | 5 (other) | TERMINAL_REJECTED (parameter) | NOT_FOUND                 | REFUND_FAILED | INVALID_STATE |
//    | 6         | PROCESSOR_UNAVAILABLE         | NOT_FOUND (unknown order) | REFUND_FAILED | NOT_FOUND     |
//    | 7         | PROCESSOR_UNAVAILABLE         | PROCESSOR_UNAVAILABLE     | REFUND_FAILED | INVALID_STATE |
//    | 13, 14    | TERMINAL_REJECTED (privilege) | PROCESSOR_UNAVAILABLE     | REFUND_FAILED | INVALID_STATE |
//    | other     | PROCESSOR_UNAVAILABLE         | PROCESSOR_UNAVAILABLE     | REFUND_FAILED | INVALID_STATE |
//
//    Why: register refusing a well-formed order (currency, parameter, privileges) is the
//    terminal's configuration, which the merchant fixes (422, not retried). A refund refused
//    for any reason (amount exceeds, wrong state, acquirer error) is REFUND_FAILED: the refund
//    is recorded for manual processing with the acquirer's message (epg_error_message).
//    A refused reversal is INVALID_STATE so the caller can fall back to a refund (after
//    settlement the acquirer answers 7 "Reversal is impossible"). System errors (7) of
//    register and status are retryable (PROCESSOR_UNAVAILABLE).
//
// Every error carries metadata: acquirer_operation, and when the acquirer said something,
// acquirer_error_code and acquirer_message (its own text, shown to operators as
// epg_error_message; never shown as our `detail`).

export type TransportOutcome = "unknown" | "not_performed";

const CREDENTIALS_MESSAGE =
  /access denied|invalid credentials|bad credentials|wrong (user ?name|login|password)|authentication failed|must change (his|the|your) password/i;

const MAX_ACQUIRER_MESSAGE = 500;

interface Rule {
  reason: ErrorReason;
  message: string;
}

const TERMINAL_CREDENTIALS: Rule = {
  reason: "TERMINAL_REJECTED",
  message: "The acquirer rejected the terminal credentials.",
};

const RULES: Record<EpgOperation, { byCode: ReadonlyMap<number, Rule>; otherwise: Rule }> = {
  register: {
    byCode: new Map<number, Rule>([
      [
        EPG_ERROR.duplicateOrNoOrder,
        { reason: "CONFLICT", message: "The acquirer already has an order with this order number." },
      ],
      [
        EPG_ERROR.unknownCurrency,
        { reason: "TERMINAL_REJECTED", message: "The acquirer terminal does not accept this currency." },
      ],
      [
        EPG_ERROR.missingParameter,
        { reason: "TERMINAL_REJECTED", message: "The acquirer terminal refused the order parameters." },
      ],
      [
        EPG_ERROR.accessDeniedOrWrongValue,
        { reason: "TERMINAL_REJECTED", message: "The acquirer terminal refused the order parameters." },
      ],
      [
        13,
        {
          reason: "TERMINAL_REJECTED",
          message: "The acquirer terminal is not allowed to make this payment.",
        },
      ],
      [
        14,
        {
          reason: "TERMINAL_REJECTED",
          message: "The acquirer terminal is not allowed to make this payment.",
        },
      ],
    ]),
    otherwise: { reason: "PROCESSOR_UNAVAILABLE", message: "The acquirer could not register the order." },
  },
  status: {
    byCode: new Map<number, Rule>([
      [
        EPG_ERROR.duplicateOrNoOrder,
        { reason: "NOT_FOUND", message: "The acquirer has no such order for this terminal." },
      ],
      [
        EPG_ERROR.missingParameter,
        { reason: "NOT_FOUND", message: "The acquirer has no such order for this terminal." },
      ],
      [
        EPG_ERROR.accessDeniedOrWrongValue,
        { reason: "NOT_FOUND", message: "The acquirer has no such order for this terminal." },
      ],
      [
        EPG_ERROR.unknownOrder,
        { reason: "NOT_FOUND", message: "The acquirer has no such order for this terminal." },
      ],
    ]),
    otherwise: {
      reason: "PROCESSOR_UNAVAILABLE",
      message: "The acquirer could not report the order status.",
    },
  },
  refund: {
    byCode: new Map<number, Rule>(),
    otherwise: { reason: "REFUND_FAILED", message: "The acquirer refused the refund." },
  },
  reverse: {
    byCode: new Map<number, Rule>([
      [
        EPG_ERROR.unknownOrder,
        { reason: "NOT_FOUND", message: "The acquirer has no such order for this terminal." },
      ],
    ]),
    otherwise: {
      reason: "INVALID_STATE",
      message: "The acquirer cannot reverse this order in its current state.",
    },
  },
};

function acquirerMetadata(
  operation: EpgOperation,
  errorCode: number | undefined,
  errorMessage: string | undefined,
): Record<string, string> {
  const metadata: Record<string, string> = { acquirer_operation: operation };
  if (errorCode !== undefined) metadata.acquirer_error_code = String(errorCode);
  if (errorMessage !== undefined && errorMessage !== "")
    metadata.acquirer_message = errorMessage.slice(0, MAX_ACQUIRER_MESSAGE);
  return metadata;
}

/** True when errorCode 5's message says the terminal's login was refused. */
export function isCredentialsRefusal(errorCode: number, errorMessage: string | undefined): boolean {
  return errorCode === EPG_ERROR.accessDeniedOrWrongValue && CREDENTIALS_MESSAGE.test(errorMessage ?? "");
}

/** The GatewayError for a protocol answer with a non-zero errorCode (table above). */
export function protocolError(
  operation: EpgOperation,
  errorCode: number,
  errorMessage: string | undefined,
): GatewayError {
  const rules = RULES[operation];
  const rule = isCredentialsRefusal(errorCode, errorMessage)
    ? TERMINAL_CREDENTIALS
    : (rules.byCode.get(errorCode) ?? rules.otherwise);
  return new GatewayError(rule.reason, rule.message, {
    metadata: acquirerMetadata(operation, errorCode, errorMessage),
  });
}

/** Operations after which a lost answer leaves us not knowing whether the acquirer acted. */
function changesState(operation: EpgOperation): boolean {
  return operation !== "status";
}

function unavailable(
  operation: EpgOperation,
  message: string,
  outcome: TransportOutcome,
  extra: Record<string, string>,
  cause?: unknown,
): GatewayError {
  const metadata: Record<string, string> = { ...acquirerMetadata(operation, undefined, undefined), ...extra };
  if (changesState(operation)) metadata.outcome = outcome;
  return new GatewayError("PROCESSOR_UNAVAILABLE", message, { metadata, cause });
}

export function timeoutError(operation: EpgOperation, timeoutMs: number, cause: unknown): GatewayError {
  return unavailable(
    operation,
    "The acquirer did not answer in time.",
    "unknown",
    { timeout_ms: String(timeoutMs) },
    cause,
  );
}

export function connectionError(operation: EpgOperation, nothingSent: boolean, cause: unknown): GatewayError {
  return unavailable(
    operation,
    "The acquirer could not be reached.",
    nothingSent ? "not_performed" : "unknown",
    {},
    cause,
  );
}

export function httpStatusError(operation: EpgOperation, status: number): GatewayError {
  if (status === 401 || status === 403) {
    return new GatewayError(TERMINAL_CREDENTIALS.reason, TERMINAL_CREDENTIALS.message, {
      metadata: { ...acquirerMetadata(operation, undefined, undefined), http_status: String(status) },
    });
  }
  const message =
    status >= 500
      ? "The acquirer is temporarily unavailable."
      : "The acquirer answered with an unexpected HTTP status.";
  return unavailable(operation, message, "unknown", { http_status: String(status) });
}

export function unreadableAnswerError(operation: EpgOperation, why: string): GatewayError {
  return unavailable(operation, "The acquirer's answer could not be read.", "unknown", { problem: why });
}
