/**
 * The failure codes of attempts and what each says to a merchant. The message is the
 * gateway's own (stable, no acquirer free text that could carry anything); merchants branch on
 * the code. Decline codes come from the acquirer adapter's action-code table; the others name
 * why an attempt was abandoned.
 */
const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  card_declined: "The card was declined.",
  insufficient_funds: "The card has insufficient funds.",
  expired_card: "The card has expired.",
  incorrect_number: "The card number is incorrect.",
  incorrect_cvc: "The card's security code is incorrect.",
  authentication_failed: "The cardholder authentication (3-D Secure) failed.",
  card_velocity_exceeded: "The card exceeded its amount or frequency limit.",
  processor_declined: "The payment processor declined the payment.",
  processor_timeout: "The card issuer did not answer in time.",
  payment_reversed: "The payment was reversed at the acquirer before it was confirmed.",
  // Abandoned attempts: not the buyer's tries.
  session_timeout: "The buyer did not complete the payment on the card page in time.",
  processor_unavailable: "The acquirer could not be reached to start the payment.",
  terminal_rejected: "The acquirer refused the merchant's terminal.",
  acquirer_refused: "The acquirer refused to register the payment.",
  session_closed: "The session closed while the payment was starting.",
  start_interrupted: "Starting the payment was interrupted before the buyer reached the card page.",
};

/** True for the failure codes this table knows (metrics label only these; others are "other"). */
export function isKnownFailureCode(code: string): boolean {
  return Object.hasOwn(FAILURE_MESSAGES, code);
}

export function failureMessageFor(code: string): string {
  return FAILURE_MESSAGES[code] ?? "The payment failed.";
}
