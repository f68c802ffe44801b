// The acquirer port: what the gateway needs from a card acquirer, in the gateway's own words.
// Implementations throw GatewayError (@gateway/platform) only; see the EPG adapter's error
// table for how a protocol answer becomes a reason.

/** A merchant's acquirer terminal: where the acquirer's API lives and how we log in to it. */
export interface Terminal {
  baseUrl: string;
  username: string;
  password: string;
}

export interface RegisterOrderInput {
  terminal: Terminal;
  /** Our order number, unique per terminal (the acquirer refuses a repeat). */
  orderNumber: string;
  amountMinor: bigint;
  /** ISO 4217 numeric code, e.g. "788" for TND. */
  currencyNumeric: string;
  returnUrl: string;
  failUrl: string;
  description?: string;
  /** How long the buyer has to pay on the acquirer's page. */
  sessionTimeoutSecs: number;
  /** Language of the acquirer's card page ("en", "fr", "ar"). */
  language?: string;
}

export interface RegisteredOrder {
  acquirerOrderId: string;
  /** The acquirer's card page; the buyer is redirected there. */
  formUrl: string;
}

export type AcquirerOrderState =
  | "CREATED"
  | "APPROVED"
  | "DEPOSITED"
  | "REVERSED"
  | "REFUNDED"
  | "DECLINED"
  | "ABANDONED";

/** Card facts the gateway may keep. Never a PAN, never a CVC. */
export interface CardSummary {
  /** visa, mastercard, amex or unknown. */
  brand: string;
  lastFour: string;
  /** ISO 3166 alpha-2 country of the issuing bank, when the acquirer tells. */
  country?: string;
}

export interface OrderStatus {
  acquirerOrderId: string;
  orderNumber: string;
  state: AcquirerOrderState;
  /** The protocol's orderStatus, 0..6, kept for reconciliation and support. */
  orderStatusCode: number;
  actionCode: number;
  actionCodeDescription: string;
  /** Our failure code for a declined or abandoned order: card_declined, insufficient_funds… */
  failureCode?: string;
  amountMinor: bigint;
  depositedMinor: bigint;
  refundedMinor: bigint;
  card?: CardSummary;
  /**
   * False on the day of payment, true once the acquirer has settled it: a refund of an
   * unsettled payment is a reversal, of a settled one a refund.
   */
  settled: boolean;
}

export interface RefundInput {
  terminal: Terminal;
  acquirerOrderId: string;
  amountMinor: bigint;
  /** Our refund id: the acquirer refunds once per id, so a retry never refunds twice. */
  externalRefundId: string;
}

export interface Acquirer {
  registerOrder(input: RegisterOrderInput): Promise<RegisteredOrder>;
  getOrderStatus(input: { terminal: Terminal; acquirerOrderId: string }): Promise<OrderStatus>;
  /** Idempotent on externalRefundId. */
  refund(input: RefundInput): Promise<void>;
  reverse(input: { terminal: Terminal; acquirerOrderId: string }): Promise<void>;
}

/** Where a service gets a merchant's acquirer terminal for one account and mode. */
export interface TerminalProvider {
  /** Throws NO_TERMINAL_CONFIGURED, TERMINAL_INACTIVE, or SERVICE_UNAVAILABLE (retryable). */
  terminalFor(scope: { merchantId: string; livemode: boolean }): Promise<Terminal>;
}
