import { EPG_ACTION } from "@gateway/acquirer";

/** What the simulator's "processing" does with a card. */
export type CardOutcome =
  | { kind: "approve" }
  | { kind: "decline"; actionCode: number }
  /** Declined by a processing timeout; every status call for the order then hangs. */
  | { kind: "processor_timeout" }
  /** Stays "3-D Secure in progress" for lateApprovalDelayMs, then is deposited. */
  | { kind: "late_approval" };

export interface TestCard {
  number: string;
  description: string;
  outcome: CardOutcome;
  /** Issuing bank country the simulator reports (Stripe-style test cards are US-issued). */
  country: string;
}

/** The documented test cards (docs/api/checkout.md#test-cards). Any future expiry, any 3-digit CVC. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: "4242424242424242", description: "approved (Visa)", outcome: { kind: "approve" }, country: "US" },
  {
    number: "5555555555554444",
    description: "approved (Mastercard)",
    outcome: { kind: "approve" },
    country: "US",
  },
  {
    number: "4000000000000002",
    description: "declined: card_declined",
    outcome: { kind: "decline", actionCode: EPG_ACTION.doNotHonor },
    country: "US",
  },
  {
    number: "4000000000009995",
    description: "declined: insufficient_funds",
    outcome: { kind: "decline", actionCode: EPG_ACTION.insufficientFunds },
    country: "US",
  },
  {
    number: "4000000000000069",
    description: "declined: expired_card",
    outcome: { kind: "decline", actionCode: EPG_ACTION.expiredCard },
    country: "US",
  },
  {
    number: "4000000000000119",
    description: "the acquirer does not answer in time",
    outcome: { kind: "processor_timeout" },
    country: "US",
  },
  {
    number: "4000000000003220",
    description: "approved only after a delay (late payment)",
    outcome: { kind: "late_approval" },
    country: "US",
  },
];

const BY_NUMBER: ReadonlyMap<string, TestCard> = new Map(TEST_CARDS.map((card) => [card.number, card]));

export type CardProcessing = Omit<TestCard, "number">;

const NOT_A_TEST_CARD: CardProcessing = {
  description: "not a test card: declined",
  outcome: { kind: "decline", actionCode: EPG_ACTION.doNotHonor },
  country: "US",
};

/**
 * How a (Luhn-valid) card number is processed. A number that is not a test card is declined:
 * the simulator never "approves" what might be a real card. The number is not kept.
 */
export function processingFor(cardNumber: string): CardProcessing {
  const card = BY_NUMBER.get(cardNumber);
  if (card === undefined) return NOT_A_TEST_CARD;
  return { description: card.description, outcome: card.outcome, country: card.country };
}
