import type { OrderStatus } from "@gateway/acquirer";
import type { Logger } from "@gateway/platform";
import type { FeePlan } from "../domain/fees.js";
import type { AttemptOutcome, CardFacts } from "../domain/settlement.js";

/**
 * The acquirer's order state as an attempt outcome. `feePlan` is asked for only when the
 * payment succeeded. A reversed or refunded order that was never settled here (an operator
 * acted at the acquirer first) did not pay the session: it is a decline, `payment_reversed`.
 */
export async function attemptOutcomeOf(
  status: OrderStatus,
  feePlan: () => Promise<FeePlan>,
  logger: Logger,
): Promise<AttemptOutcome> {
  switch (status.state) {
    case "CREATED":
      return { kind: "pending" };
    case "APPROVED":
    case "DEPOSITED":
      return { kind: "succeeded", plan: await feePlan(), ...cardFactsOf(status) };
    case "DECLINED":
      // The card facts of a decline tell the merchant which card failed (never the number).
      return { kind: "declined", failureCode: status.failureCode ?? "card_declined", ...cardFactsOf(status) };
    case "ABANDONED":
      return { kind: "abandoned", failureCode: status.failureCode ?? "session_timeout" };
    case "REVERSED":
    case "REFUNDED":
      logger.warn(
        { acquirerOrderId: status.acquirerOrderId, state: status.state },
        "an unsettled attempt was reversed or refunded at the acquirer",
      );
      return { kind: "declined", failureCode: "payment_reversed" };
  }
}

function cardFactsOf(status: OrderStatus): { card?: CardFacts } {
  if (!status.card) return {};
  return {
    card: {
      brand: status.card.brand,
      lastFour: status.card.lastFour,
      ...(status.card.country ? { country: status.card.country } : {}),
    },
  };
}
