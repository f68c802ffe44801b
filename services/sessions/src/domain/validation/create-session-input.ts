import type { AccountScope, Buyer, LineItem, OriginalAmount } from "../session.js";

/**
 * A create request as the service receives it, free of transport types. Required strings are
 * "" when absent; optional fields are undefined when absent (so "absent" and "empty" differ).
 */
export interface CreateSessionInput {
  scope: AccountScope;
  merchantReference: string;
  amount: string;
  currency?: string;
  orderId?: string;
  description?: string;
  items: LineItemInput[];
  buyerFirstName?: string;
  buyerLastName?: string;
  buyerEmail?: string;
  buyerPhone?: string;
  metadataJson?: string;
  returnUrl?: string;
  cancelUrl?: string;
  webhookUrl?: string;
  maxAttempts?: number;
}

export interface LineItemInput {
  name: string;
  quantity: number;
  unitPrice: string;
  description?: string;
}

/** A create request that passed every check, with amounts converted to minor units. */
export interface ValidCreateSession {
  merchantReference: string;
  /** Settlement (TND) minor units. */
  amountMinor: bigint;
  original: OriginalAmount;
  orderId?: string;
  description?: string;
  items: LineItem[];
  buyer: Buyer;
  metadataJson?: string;
  returnUrl?: string;
  cancelUrl?: string;
  webhookUrl?: string;
  maxAttempts: number;
}
