/** A merchant account in one mode: every read and write of a refund is confined to it. */
export interface AccountScope {
  merchantId: string;
  livemode: boolean;
}

export type RefundType = "FULL" | "PARTIAL";

/**
 * SUCCEEDED: the acquirer confirmed it. PENDING_MANUAL: the acquirer could not confirm it
 * (or the process stopped mid-way); operations settle it by hand. FAILED: operations found it
 * did not happen; its amount is given back to the session's balance.
 */
export type RefundStatus = "SUCCEEDED" | "PENDING_MANUAL" | "FAILED";

/** A reversal cancels the whole unsettled payment; a refund returns money from a settled one. */
export type RefundMethod = "REFUND" | "REVERSAL";

export interface Refund {
  /** `re_…`; also the acquirer's externalRefundId, so a retry never refunds twice. */
  id: string;
  sessionId: string;
  scope: AccountScope;
  type: RefundType;
  amountMinor: bigint;
  currency: string;
  reason: string;
  /** Merchant metadata as JSON text ("" when none): stored keys may not hold `.` or `$`. */
  metadataJson: string;
  status: RefundStatus;
  /** True only when the acquirer confirmed the refund or reversal itself. */
  automated: boolean;
  /** The acquirer's reason when it could not confirm; "" otherwise. */
  acquirerErrorMessage: string;
  externalRefundId: string;
  method: RefundMethod;
  /** Set by operations when they resolve a manual refund. */
  resolutionNote?: string;
  /**
   * How the merchant knows the refunded session, and its own webhook URL ("" when the account's
   * endpoint applies): copied from the session at creation, for the refund's webhook events.
   */
  sessionMerchantReference: string;
  sessionOrderNumber: string;
  sessionWebhookUrl: string;
  createdAt: Date;
  updatedAt: Date;
}

/** SUCCEEDED and FAILED are final: a refund reaches one of them once and never leaves it. */
export type FinalRefundStatus = Extract<RefundStatus, "SUCCEEDED" | "FAILED">;

/** What a session was paid and how much of it refunds have taken so far. */
export interface Balance {
  paidMinor: bigint;
  /** SUCCEEDED and PENDING_MANUAL refunds both count: the money may already be on its way back. */
  refundedMinor: bigint;
}

export function remainingMinor(balance: Balance): bigint {
  return balance.paidMinor - balance.refundedMinor;
}
