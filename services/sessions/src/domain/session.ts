/**
 * The payment session aggregate. Amounts are integer minor units (bigint) with their currency;
 * the decimal strings of the API exist only at the rpc boundary.
 */

export const SESSION_STATUSES = [
  "CREATED",
  "PENDING",
  "PROCESSING",
  "SUCCEEDED",
  "FAILED",
  "EXPIRED",
  "CANCELED",
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const ATTEMPT_STATUSES = ["INITIATED", "PROCESSING", "SUCCEEDED", "FAILED", "ABANDONED"] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** The merchant account and mode a call acts for; every read and write is confined to one. */
export interface AccountScope {
  merchantId: string;
  livemode: boolean;
}

/** What the merchant asked for, before conversion to the settlement currency. */
export interface OriginalAmount {
  amountMinor: bigint;
  currency: string;
  /** Six decimals: 1 unit of `currency` equals `rate` TND ("1.000000" without conversion). */
  rate: string;
}

/** A line item; `unitPriceMinor` is in the original currency, as the merchant priced it. */
export interface LineItem {
  name: string;
  quantity: number;
  unitPriceMinor: bigint;
  description?: string;
}

export interface Buyer {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

/** One hosted-page link. Links are appended, never removed: the last one is current. */
export interface CheckoutLink {
  token: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Who asked the acquirer for an attempt's outcome: kept on the attempt for support. */
export const SETTLEMENT_SOURCES = ["return", "callback", "reconciler", "checkout", "cancel"] as const;
export type SettlementSource = (typeof SETTLEMENT_SOURCES)[number];

/**
 * One payment try: an order registered at the acquirer and the buyer's card page. Only the
 * card's brand, last four digits and issuing country are ever kept, never a card number.
 */
export interface PaymentAttempt {
  /** `pa_…` */
  id: string;
  /** 1, 2, 3… in the order the attempts were started. */
  attemptNumber: number;
  status: AttemptStatus;
  /** Our order number at the acquirer, unique per attempt: `<order_number>-<attempt_number>`. */
  acquirerOrderNumber: string;
  /** The checkout link the buyer started from: the page to send them back to. */
  checkoutToken: string;
  /** The acquirer's order id; set once the order is registered (PROCESSING). */
  acquirerOrderId?: string;
  /** The acquirer's card page, kept so a buyer coming back can resume the same payment. */
  formUrl?: string;
  cardBrand?: string;
  cardLastFour?: string;
  /** ISO 3166-1 alpha-2 country of the issuing bank, when the acquirer tells. */
  cardCountry?: string;
  failureCode?: string;
  /** The gateway's own words for the failure code (never the acquirer's free text). */
  failureMessage?: string;
  /** Settlement currency (TND) minor units. */
  feeMinor?: bigint;
  netMinor?: bigint;
  createdAt: Date;
  /** When the attempt reached its final status. */
  settledAt?: Date;
  settledBy?: SettlementSource;
  /**
   * Money the acquirer took that the session does not keep: approved after the session had
   * already succeeded through another attempt, or had closed. It must be given back
   * (reconciliation reverses it); it is never counted as the session's payment.
   */
  duplicatePayment?: boolean;
  /** When a duplicate payment was given back at the acquirer, and how. */
  returnedAt?: Date;
  returnMethod?: LatePaymentReturnMethod;
}

/** Reversal before the acquirer settled the payment (same day), refund after. */
export type LatePaymentReturnMethod = "reversal" | "refund";

export interface Session {
  id: string;
  scope: AccountScope;
  merchantReference: string;
  orderNumber: string;
  orderId?: string;
  /** Settlement amount, in minor units of `currency`. */
  amountMinor: bigint;
  /** Always the settlement currency (TND). */
  currency: string;
  original: OriginalAmount;
  description?: string;
  items: LineItem[];
  status: SessionStatus;
  buyer: Buyer;
  /** The merchant's metadata exactly as the JSON text it sent. */
  metadataJson?: string;
  returnUrl?: string;
  cancelUrl?: string;
  webhookUrl?: string;
  maxAttempts: number;
  checkoutLinks: CheckoutLink[];
  attempts: PaymentAttempt[];
  expiresAt: Date;
  /** When the session reached a final state (SUCCEEDED, FAILED, EXPIRED or CANCELED). */
  completedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Bumped by every stored change; conditional updates compare it (optimistic concurrency). */
  version: number;
  /** Sequence of the session's last event (0 before the first); events count 1, 2, 3… */
  lastEventSequence: number;
  /**
   * When the current checkout link's expiry is to be announced (checkout.session.expired);
   * unset once announced, or when the link lasts as long as the session (session.expired
   * says it then).
   */
  linkExpiryDueAt?: Date;
  /**
   * When the sweeper next asks the acquirer about this session's unfinished business: an
   * attempt still INITIATED or PROCESSING, or a late payment still to be given back. Unset when
   * there is none.
   */
  reconcileAt?: Date;
}

/** The fields a state change may write. The repository bumps `version` itself. */
export type SessionChanges = Partial<
  Pick<Session, "status" | "completedAt" | "updatedAt" | "checkoutLinks" | "attempts" | "lastEventSequence">
> & {
  /** null clears the schedule. */
  linkExpiryDueAt?: Date | null;
  reconcileAt?: Date | null;
};

const TERMINAL: ReadonlySet<SessionStatus> = new Set(["SUCCEEDED", "FAILED", "EXPIRED"]);

/** SUCCEEDED, FAILED and EXPIRED end a session (docs/api/sessions.md#session-states). */
export function isTerminal(status: SessionStatus): boolean {
  return TERMINAL.has(status);
}

/** A buyer can still pay: not terminal and not canceled (CANCELED is final for payment). */
export function isPayable(status: SessionStatus): boolean {
  return status === "CREATED" || status === "PENDING" || status === "PROCESSING";
}

/** The link a buyer should use now, when the session can still be paid. */
export function currentCheckoutLink(session: Session): CheckoutLink | undefined {
  if (!isPayable(session.status)) return undefined;
  return session.checkoutLinks.at(-1);
}

/** `session` with `changes` applied (a null schedule field removes it); the version is not bumped. */
export function withChanges(session: Session, changes: SessionChanges): Session {
  const { linkExpiryDueAt, reconcileAt, ...rest } = changes;
  const next: Session = { ...session, ...rest };
  if (linkExpiryDueAt === null) delete next.linkExpiryDueAt;
  else if (linkExpiryDueAt !== undefined) next.linkExpiryDueAt = linkExpiryDueAt;
  if (reconcileAt === null) delete next.reconcileAt;
  else if (reconcileAt !== undefined) next.reconcileAt = reconcileAt;
  return next;
}
