import type { Acquirer, Terminal } from "@gateway/acquirer";
import { GatewayError } from "@gateway/platform";
import type { RefundMethod, RefundStatus } from "../domain/refund.js";

export interface AcquirerStepResult {
  status: Extract<RefundStatus, "SUCCEEDED" | "PENDING_MANUAL">;
  automated: boolean;
  method: RefundMethod;
  acquirerErrorMessage: string;
}

export interface AcquirerStepInput {
  terminal: Terminal;
  acquirerOrderId: string;
  refundId: string;
  amountMinor: bigint;
  /** True when this refund gives back the whole payment and nothing was refunded before. */
  wholePayment: boolean;
  /** Whether the acquirer has settled the payment; undefined when not known. */
  settled: boolean | undefined;
}

/**
 * Gives the money back at the acquirer. A whole payment that is not known to be settled is
 * reversed (the acquirer only reverses whole, unsettled orders); when the acquirer refuses the
 * reversal (INVALID_STATE: settled meanwhile, or not reversible), it is refunded instead. Every
 * refund carries our refund id as externalRefundId, so repeating this step never refunds twice.
 *
 * Never throws: when the acquirer cannot confirm (unreachable, timed out, unknown outcome, or
 * refused), the refund goes to operations' manual queue with the acquirer's own message.
 */
export async function refundAtAcquirer(
  acquirer: Acquirer,
  input: AcquirerStepInput,
): Promise<AcquirerStepResult> {
  const order = { terminal: input.terminal, acquirerOrderId: input.acquirerOrderId };
  if (input.wholePayment && input.settled !== true) {
    try {
      await acquirer.reverse(order);
      return confirmed("REVERSAL");
    } catch (err) {
      if (!(err instanceof GatewayError && err.reason === "INVALID_STATE")) return manual("REVERSAL", err);
      // A repeat of this step after an earlier reversal whose answer was lost finds the order
      // reversed: that reversal was this refund.
      if (await isReversed(acquirer, order)) return confirmed("REVERSAL");
    }
  }
  try {
    await acquirer.refund({ ...order, amountMinor: input.amountMinor, externalRefundId: input.refundId });
    return confirmed("REFUND");
  } catch (err) {
    return manual("REFUND", err);
  }
}

async function isReversed(
  acquirer: Acquirer,
  order: { terminal: Terminal; acquirerOrderId: string },
): Promise<boolean> {
  try {
    return (await acquirer.getOrderStatus(order)).state === "REVERSED";
  } catch {
    // Cannot tell: go on with a refund, which the acquirer refuses if the order is reversed.
    return false;
  }
}

function confirmed(method: RefundMethod): AcquirerStepResult {
  return { status: "SUCCEEDED", automated: true, method, acquirerErrorMessage: "" };
}

/** The acquirer's own words when it gave any (metadata acquirer_message), else our safe message. */
export function acquirerMessageOf(err: unknown): string {
  if (err instanceof GatewayError) {
    const said = err.metadata.acquirer_message;
    return said !== undefined && said !== "" ? said : err.message;
  }
  return "The acquirer call failed unexpectedly.";
}

function manual(method: RefundMethod, err: unknown): AcquirerStepResult {
  return { status: "PENDING_MANUAL", automated: false, method, acquirerErrorMessage: acquirerMessageOf(err) };
}
