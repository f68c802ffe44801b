import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { fromMinorUnits } from "@gateway/money";
import { keyOfValue } from "@gateway/platform";
import {
  type LineItem,
  AttemptStatus as ProtoAttemptStatus,
  type PaymentAttempt as ProtoPaymentAttempt,
  type Session as ProtoSession,
  SessionStatus as ProtoSessionStatus,
} from "@gateway/proto";
import { checkoutUrl } from "../domain/checkout-link.js";
import {
  type AttemptStatus,
  currentCheckoutLink,
  type PaymentAttempt,
  type Session,
  type SessionStatus,
} from "../domain/session.js";

export const STATUS_TO_PROTO: { readonly [S in SessionStatus]: ProtoSessionStatus } = {
  CREATED: ProtoSessionStatus.CREATED,
  PENDING: ProtoSessionStatus.PENDING,
  PROCESSING: ProtoSessionStatus.PROCESSING,
  SUCCEEDED: ProtoSessionStatus.SUCCEEDED,
  FAILED: ProtoSessionStatus.FAILED,
  EXPIRED: ProtoSessionStatus.EXPIRED,
  CANCELED: ProtoSessionStatus.CANCELED,
};

const ATTEMPT_STATUS_TO_PROTO: { readonly [S in AttemptStatus]: ProtoAttemptStatus } = {
  INITIATED: ProtoAttemptStatus.INITIATED,
  PROCESSING: ProtoAttemptStatus.PROCESSING,
  SUCCEEDED: ProtoAttemptStatus.SUCCEEDED,
  FAILED: ProtoAttemptStatus.FAILED,
  ABANDONED: ProtoAttemptStatus.ABANDONED,
};

/** The proto status for a filter, or undefined for UNSPECIFIED (no filter). */
export function statusFromProto(status: ProtoSessionStatus): SessionStatus | undefined {
  return keyOfValue(STATUS_TO_PROTO, status);
}

/**
 * A Timestamp message of a Date, as `timestampFromDate` makes it, as an object literal (see
 * sessionToProto).
 */
function timestampOf(date: Date): Timestamp {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return {
    $typeName: "google.protobuf.Timestamp",
    seconds: BigInt(seconds),
    nanos: (ms - seconds * 1000) * 1_000_000,
  };
}

/**
 * The wire form of a session: decimal strings at each currency's precision, the checkout link
 * only while the session can still be paid.
 *
 * Every message here is an object literal naming each of its fields, rather than `create()`:
 * the same plain object, built in one step instead of field by field through the schema, and
 * every create, read and list answers with one (docs/decisions.md#session-messages-are-written-as-literals).
 * A field added to the proto fails to compile here until it is set.
 */
export function sessionToProto(s: Session, publicBaseUrl: string): ProtoSession {
  const link = currentCheckoutLink(s);
  const original = s.original;
  return {
    $typeName: "gateway.sessions.v1.Session",
    id: s.id,
    scope: {
      $typeName: "gateway.common.v1.AccountScope",
      merchantId: s.scope.merchantId,
      livemode: s.scope.livemode,
    },
    merchantReference: s.merchantReference,
    orderNumber: s.orderNumber,
    orderId: s.orderId ?? "",
    amount: fromMinorUnits(s.amountMinor, s.currency),
    currency: s.currency,
    original: {
      $typeName: "gateway.sessions.v1.OriginalAmount",
      amount: fromMinorUnits(original.amountMinor, original.currency),
      currency: original.currency,
      rate: original.rate,
    },
    description: s.description ?? "",
    items: s.items.map(
      (item): LineItem => ({
        $typeName: "gateway.sessions.v1.LineItem",
        name: item.name,
        quantity: item.quantity,
        unitPrice: fromMinorUnits(item.unitPriceMinor, original.currency),
        description: item.description ?? "",
      }),
    ),
    status: STATUS_TO_PROTO[s.status],
    buyerFirstName: s.buyer.firstName ?? "",
    buyerLastName: s.buyer.lastName ?? "",
    buyerEmail: s.buyer.email ?? "",
    buyerPhone: s.buyer.phone ?? "",
    metadataJson: s.metadataJson ?? "",
    returnUrl: s.returnUrl ?? "",
    cancelUrl: s.cancelUrl ?? "",
    webhookUrl: s.webhookUrl ?? "",
    maxAttempts: s.maxAttempts,
    checkoutUrl: link ? checkoutUrl(publicBaseUrl, link.token) : "",
    expiresAt: timestampOf(s.expiresAt),
    completedAt: s.completedAt ? timestampOf(s.completedAt) : undefined,
    createdAt: timestampOf(s.createdAt),
    attempts: s.attempts.map((a) => attemptToProto(a, s.currency)),
    checkoutExpiresAt: link ? timestampOf(link.expiresAt) : undefined,
  };
}

/** An attempt on the wire: fee and net as decimal strings, unknown card facts empty. */
export function attemptToProto(a: PaymentAttempt, currency: string): ProtoPaymentAttempt {
  return {
    $typeName: "gateway.sessions.v1.PaymentAttempt",
    id: a.id,
    attemptNumber: a.attemptNumber,
    status: ATTEMPT_STATUS_TO_PROTO[a.status],
    cardBrand: a.cardBrand ?? "",
    cardLastFour: a.cardLastFour ?? "",
    failureCode: a.failureCode ?? "",
    feeAmount: a.feeMinor === undefined ? "" : fromMinorUnits(a.feeMinor, currency),
    netAmount: a.netMinor === undefined ? "" : fromMinorUnits(a.netMinor, currency),
    createdAt: timestampOf(a.createdAt),
    acquirerOrderId: a.acquirerOrderId ?? "",
  };
}
