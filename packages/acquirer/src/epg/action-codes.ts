/**
 * Our failure codes (the attempt's `failure_code`), Stripe's vocabulary where one exists.
 * `session_timeout` is not a decline: the buyer never paid, so the attempt is ABANDONED.
 */
export type FailureCode =
  | "card_declined"
  | "insufficient_funds"
  | "expired_card"
  | "incorrect_number"
  | "incorrect_cvc"
  | "authentication_failed"
  | "card_velocity_exceeded"
  | "processor_declined"
  | "processor_timeout"
  | "session_timeout";

interface ActionCodeEntry {
  description: string;
  failureCode: FailureCode;
}

/**
 * The acquirer's `actionCode` of a declined order -> our failure code. The codes are those the
 * BPC/RBS documentation lists for card payments. Why each group maps where it does:
 * - lost/stolen/restricted cards are told to the merchant as a plain `card_declined`: naming
 *   "stolen" helps a fraudster more than a merchant;
 * - issuer/switch not answering is `processor_timeout` (worth another try later), while a
 *   merchant or terminal problem at the processor is `processor_declined` (it will not pass
 *   on retry without a configuration change);
 * - -2007 is the payment page's own timeout: nobody paid, so it is `session_timeout`, which
 *   the gateway reports as an ABANDONED attempt, not a decline.
 * An actionCode not in the table on a declined order is `card_declined` (see
 * failureCodeForActionCode): a decline is never reported as success, nor as a made-up cause.
 */
export const EPG_ACTION_CODES: ReadonlyMap<number, ActionCodeEntry> = new Map<number, ActionCodeEntry>([
  [-2007, { description: "Payment session expired", failureCode: "session_timeout" }],
  [
    -20010,
    { description: "Blocked by the amount limits of the terminal", failureCode: "processor_declined" },
  ],
  [-2000, { description: "Card is on the blacklist", failureCode: "card_declined" }],
  [-2001, { description: "Buyer's IP address is on the blacklist", failureCode: "card_declined" }],
  [-2002, { description: "Amount exceeds the limit", failureCode: "card_velocity_exceeded" }],
  [-2004, { description: "Payment without CVC is not allowed", failureCode: "incorrect_cvc" }],
  [-2005, { description: "3-D Secure signature check failed", failureCode: "authentication_failed" }],
  [-2006, { description: "Issuer refused 3-D Secure authentication", failureCode: "authentication_failed" }],
  [
    -2011,
    { description: "3-D Secure authentication was not completed", failureCode: "authentication_failed" },
  ],
  [-2012, { description: "Operation not supported", failureCode: "processor_declined" }],
  [-2013, { description: "Payment attempts exhausted", failureCode: "card_declined" }],
  [-2015, { description: "Directory server declined the card", failureCode: "authentication_failed" }],
  [
    -2016,
    {
      description: "Issuer could not tell whether the card is 3-D Secure enrolled",
      failureCode: "authentication_failed",
    },
  ],
  [-2017, { description: "3-D Secure status unknown", failureCode: "authentication_failed" }],
  [-2018, { description: "Directory server did not answer", failureCode: "processor_timeout" }],
  [-2019, { description: "Issuer declined the 3-D Secure result", failureCode: "authentication_failed" }],
  [-1, { description: "Processing timeout", failureCode: "processor_timeout" }],
  [100, { description: "Restricted card (do not honor)", failureCode: "card_declined" }],
  [101, { description: "Expired card", failureCode: "expired_card" }],
  [103, { description: "Call the issuer", failureCode: "card_declined" }],
  [104, { description: "Restricted card", failureCode: "card_declined" }],
  [107, { description: "Refer to the issuer", failureCode: "card_declined" }],
  [109, { description: "Invalid merchant", failureCode: "processor_declined" }],
  [110, { description: "Invalid amount", failureCode: "processor_declined" }],
  [111, { description: "Invalid card number", failureCode: "incorrect_number" }],
  [116, { description: "Insufficient funds", failureCode: "insufficient_funds" }],
  [117, { description: "Incorrect PIN", failureCode: "card_declined" }],
  [119, { description: "Transaction not permitted to the cardholder", failureCode: "card_declined" }],
  [120, { description: "Transaction not permitted to the terminal", failureCode: "processor_declined" }],
  [121, { description: "Exceeds the withdrawal amount limit", failureCode: "card_velocity_exceeded" }],
  [123, { description: "Exceeds the withdrawal frequency limit", failureCode: "card_velocity_exceeded" }],
  [125, { description: "Card not effective", failureCode: "incorrect_number" }],
  [208, { description: "Lost card", failureCode: "card_declined" }],
  [209, { description: "Stolen card", failureCode: "card_declined" }],
  [902, { description: "Invalid transaction", failureCode: "card_declined" }],
  [904, { description: "Format error", failureCode: "processor_declined" }],
  [907, { description: "Issuer or switch inoperative", failureCode: "processor_timeout" }],
  [909, { description: "System malfunction", failureCode: "processor_declined" }],
  [910, { description: "Issuer unavailable", failureCode: "processor_timeout" }],
  [913, { description: "Duplicate transmission", failureCode: "processor_declined" }],
  [71015, { description: "Wrong card details entered", failureCode: "incorrect_number" }],
  [151017, { description: "3-D Secure authentication failed", failureCode: "authentication_failed" }],
  [151018, { description: "Processing timeout, request not sent", failureCode: "processor_timeout" }],
  [151019, { description: "Processing timeout, request sent", failureCode: "processor_timeout" }],
]);

/** Action codes of the simulator's test cards and of the page timeout, by name. */
export const EPG_ACTION = {
  approved: 0,
  noPaymentAttempt: -100,
  doNotHonor: 100,
  expiredCard: 101,
  insufficientFunds: 116,
  processingTimeout: 151019,
  sessionExpired: -2007,
} as const;

/** Our failure code for a declined order's actionCode; undefined for 0 (approved). */
export function failureCodeForActionCode(actionCode: number): FailureCode | undefined {
  if (actionCode === EPG_ACTION.approved) return undefined;
  return EPG_ACTION_CODES.get(actionCode)?.failureCode ?? "card_declined";
}

/** The documented description, for simulator answers and support screens. */
export function describeActionCode(actionCode: number): string {
  if (actionCode === EPG_ACTION.approved) return "Approved";
  if (actionCode === EPG_ACTION.noPaymentAttempt) return "No payment attempt yet";
  return EPG_ACTION_CODES.get(actionCode)?.description ?? "Declined";
}
