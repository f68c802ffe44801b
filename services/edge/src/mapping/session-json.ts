import { type JsonOutput, RawJson } from "@gateway/platform";
import { AttemptStatus, type PaymentAttempt, type Session, SessionStatus } from "@gateway/proto";
import { isJsonObject } from "../http/json-body.js";
import { formatTimestamp } from "./rfc3339.js";

/** Enum value name without its type prefix: SESSION_STATUS_CREATED -> "CREATED". */
export function sessionStatusName(status: SessionStatus): string | null {
  return status === SessionStatus.UNSPECIFIED ? null : (SessionStatus[status] ?? null);
}

function attemptStatusName(status: AttemptStatus): string | null {
  return status === AttemptStatus.UNSPECIFIED ? null : (AttemptStatus[status] ?? null);
}

/** Unset proto strings are "", which the API shows as null. */
function text(value: string): string | null {
  return value === "" ? null : value;
}

/**
 * The session (docs/api/sessions.md#the-session-object), in its field order. `metadata` is the merchant's JSON
 * text spliced in verbatim (RawJson), `null` when the session has none. `checkout_url` is null
 * when the session can no longer be paid (docs/api/sessions.md#the-session-object).
 */
export function sessionToJson(session: Session): JsonOutput {
  return {
    id: session.id,
    merchant_reference: session.merchantReference,
    order_number: session.orderNumber,
    order_id: text(session.orderId),
    amount: session.amount,
    currency: text(session.currency),
    original: session.original
      ? { amount: session.original.amount, currency: session.original.currency, rate: session.original.rate }
      : null,
    description: text(session.description),
    items: session.items.map((item) => ({
      name: item.name,
      quantity: item.quantity,
      unit_price: item.unitPrice,
      description: text(item.description),
    })),
    status: sessionStatusName(session.status),
    livemode: session.scope?.livemode ?? false,
    buyer_first_name: text(session.buyerFirstName),
    buyer_last_name: text(session.buyerLastName),
    buyer_email: text(session.buyerEmail),
    buyer_phone: text(session.buyerPhone),
    metadata: metadataJson(session.metadataJson),
    return_url: text(session.returnUrl),
    cancel_url: text(session.cancelUrl),
    webhook_url: text(session.webhookUrl),
    max_attempts: session.maxAttempts,
    checkout_url: text(session.checkoutUrl),
    expires_at: formatTimestamp(session.expiresAt),
    completed_at: formatTimestamp(session.completedAt),
    created_at: formatTimestamp(session.createdAt),
    attempts: session.attempts.map(attemptToJson),
  };
}

function attemptToJson(attempt: PaymentAttempt): JsonOutput {
  return {
    id: attempt.id,
    attempt_number: attempt.attemptNumber,
    status: attemptStatusName(attempt.status),
    card_brand: text(attempt.cardBrand),
    card_last_four: text(attempt.cardLastFour),
    failure_code: text(attempt.failureCode),
    fee_amount: text(attempt.feeAmount),
    net_amount: text(attempt.netAmount),
    created_at: formatTimestamp(attempt.createdAt),
  };
}

/**
 * The stored text goes out verbatim, so it is checked first: corrupt text would make the whole
 * response invalid JSON, which is worse than a 500.
 */
function metadataJson(raw: string): RawJson | null {
  if (raw === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error("stored session metadata is not valid JSON");
  }
  if (!isJsonObject(parsed)) throw new Error("stored session metadata is not a JSON object");
  return new RawJson(raw.trim());
}
