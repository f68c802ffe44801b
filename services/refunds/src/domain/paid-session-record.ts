import type { AccountScope } from "./refund.js";
import type { PaidSession } from "./refund-rules.js";

/** Where the refunds service learned what a session was paid. */
export type PaidSessionSource = "session_event" | "sessions_service";

/**
 * What a session was paid, as the refunds service recorded it: from the session.succeeded
 * event, or from the sessions service when a refund came before the event. Recorded once and
 * never changed: a later account of the same payment is compared with it, not written over it.
 */
export interface PaidSessionRecord {
  scope: AccountScope;
  sessionId: string;
  amountMinor: bigint;
  currency: string;
  /** The acquirer order of the successful attempt. */
  acquirerOrderId: string;
  merchantReference: string;
  orderNumber: string;
  /** "" when the account's endpoint applies. */
  webhookUrl: string;
  source: PaidSessionSource;
  recordedAt: Date;
}

/** The facts two accounts of one payment must agree on; the first difference found, if any. */
export function paymentDisagreement(
  record: PaidSessionRecord,
  other: Pick<PaidSessionRecord, "scope" | "amountMinor" | "currency" | "acquirerOrderId">,
): string | undefined {
  if (record.scope.merchantId !== other.scope.merchantId || record.scope.livemode !== other.scope.livemode) {
    return "the session was recorded under another account or mode";
  }
  if (record.currency !== other.currency)
    return `currency ${record.currency} was recorded, ${other.currency} is reported`;
  if (record.amountMinor !== other.amountMinor)
    return `amount ${record.amountMinor} was recorded, ${other.amountMinor} is reported (minor units)`;
  if (record.acquirerOrderId !== other.acquirerOrderId)
    return `acquirer order ${record.acquirerOrderId} was recorded, ${other.acquirerOrderId} is reported`;
  return undefined;
}

/** A succeeded session as the sessions service told it, as a record to keep. */
export function recordFromSession(
  scope: AccountScope,
  sessionId: string,
  session: PaidSession & { acquirerOrderId: string },
  recordedAt: Date,
): PaidSessionRecord {
  return {
    scope,
    sessionId,
    amountMinor: session.amountMinor,
    currency: session.currency,
    acquirerOrderId: session.acquirerOrderId,
    merchantReference: session.merchantReference,
    orderNumber: session.orderNumber,
    webhookUrl: session.webhookUrl,
    source: "sessions_service",
    recordedAt,
  };
}
