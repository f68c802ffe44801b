import type { Acquirer, Terminal } from "@gateway/acquirer";
import { GatewayError } from "@gateway/platform";
import type { LatePaymentReturnMethod, PaymentAttempt } from "../domain/session.js";

/**
 * Gives a late payment back at the acquirer: reversed while the acquirer has not settled it
 * (nothing moved yet), refunded after. Safe to repeat after a crash or a lost answer: an order
 * already reversed or refunded is taken as given back, and the refund carries an id derived
 * from the attempt (externalRefundId), so the acquirer refunds it once. Throws the acquirer's
 * GatewayError when it cannot be done now (the sweeper tries again later).
 */
export async function giveBackAtAcquirer(
  acquirer: Acquirer,
  terminal: Terminal,
  attempt: PaymentAttempt,
  amountMinor: bigint,
): Promise<LatePaymentReturnMethod> {
  if (attempt.acquirerOrderId === undefined)
    throw new Error(`late payment ${attempt.id} has no acquirer order id`);
  const order = { terminal, acquirerOrderId: attempt.acquirerOrderId };
  const status = await acquirer.getOrderStatus(order);
  if (status.state === "REVERSED") return "reversal";
  if (status.state === "REFUNDED") return "refund";
  if (!status.settled) {
    try {
      await acquirer.reverse(order);
      return "reversal";
    } catch (err) {
      // Settled meanwhile, or not reversible: a refund it is.
      if (!(err instanceof GatewayError && err.reason === "INVALID_STATE")) throw err;
    }
  }
  const paid = status.depositedMinor > 0n ? status.depositedMinor : amountMinor;
  await acquirer.refund({
    ...order,
    amountMinor: paid - status.refundedMinor,
    externalRefundId: latePaymentRefundId(attempt.id),
  });
  return "refund";
}

/** The acquirer-side idempotency key of the refund giving back attempt `attemptId`. */
export function latePaymentRefundId(attemptId: string): string {
  return `late-${attemptId}`;
}
