/** Failure codes of a declined attempt (the attempt's `failure_code`) the page explains; others read as `unknown`. */
export const FAILURE_CODES = [
  "card_declined",
  "insufficient_funds",
  "expired_card",
  "incorrect_number",
  "incorrect_cvc",
  "authentication_failed",
  "card_velocity_exceeded",
  "processor_declined",
  "processor_timeout",
  "session_timeout",
  "unknown",
] as const;

export type FailureCodeKey = (typeof FAILURE_CODES)[number];

/** A title and an explanation: every page that is not the order summary is one of these. */
export interface Notice {
  title: string;
  body: string;
}

/**
 * Every text of the hosted checkout pages. en.ts, fr.ts and ar.ts each provide all of them (the
 * compiler checks, and a test compares the key sets). Functions take values that the page
 * escapes afterwards: messages are plain text, never markup.
 */
export interface Messages {
  dir: "ltr" | "rtl";
  languageSwitcher: string;
  skipToContent: string;
  pageTitle: (merchant: string) => string;
  secureFooter: string;
  testMode: string;

  payHeading: (merchant: string) => string;
  orderSummary: string;
  merchant: string;
  orderNumber: string;
  orderReference: string;
  description: string;
  items: string;
  itemName: string;
  itemQuantity: string;
  itemUnitPrice: string;
  itemTotal: string;
  totalToPay: string;
  originalAmount: (amount: string, rate: string) => string;
  payButton: (amount: string) => string;
  payHint: string;
  /** Cancel when the merchant gave a cancel_url (the buyer is taken there). */
  cancelButton: string;
  /** Cancel when there is no cancel_url (the buyer stays on this page). */
  cancelButtonStay: string;
  canceledNote: string;
  declinedTitle: string;
  failureReasons: Record<FailureCodeKey, string>;
  attemptsLeft: (count: number) => string;

  processing: Notice;
  checkAgain: string;
  succeeded: Notice;
  succeededBody: (merchant: string) => string;
  returnToMerchant: (merchant: string) => string;
  /** The link on the page that forwards the buyer to the merchant after the acquirer. */
  continueToMerchant: string;
  failed: Notice;
  closed: Notice;
  linkExpired: Notice;
  notFound: Notice;
  csrfRejected: Notice;
  confirming: Notice;
  merchantUnavailable: Notice;
  processorUnavailable: Notice;
  alreadyClosed: Notice;
  cannotStart: Notice;
  tooManyRequests: Notice;
  serviceUnavailable: Notice;
  badRequest: Notice;
  unexpected: Notice;
  reference: string;
  backToPayment: string;
  tryAgain: string;
}
