import { GatewayError } from "@gateway/platform";
import type { AccountScope, Refund } from "../domain/refund.js";
import type { RefundDeps } from "./refund-deps.js";

export async function getRefund(deps: Pick<RefundDeps, "refunds">, scope: AccountScope, refundId: string): Promise<Refund> {
  const refund = await deps.refunds.findById(scope, refundId);
  if (refund === undefined) throw GatewayError.notFound("refund", refundId);
  return refund;
}

export const MAX_MANUAL_PAGE = 500;

/** Operations' queue: refunds the acquirer could not confirm, oldest first. */
export async function listManualRefunds(deps: Pick<RefundDeps, "refunds">, limit: number): Promise<Refund[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MANUAL_PAGE) {
    throw GatewayError.validation([{ field: "limit", code: "invalid", message: `limit must be an integer from 1 to ${MAX_MANUAL_PAGE}` }]);
  }
  return deps.refunds.listPendingManual(limit);
}

export interface ResolveManualRefundInput {
  refundId: string;
  /** SUCCEEDED: operations made the refund. FAILED: it did not happen; the balance is given back. */
  outcome: "SUCCEEDED" | "FAILED";
  note: string;
}

/**
 * Settles a manual refund. FAILED marks the record first and gives the balance back after: a
 * stop in between leaves the balance lower than it could be (safe), never a refund counted as
 * both failed and taken. Repeating a resolution with the same outcome is harmless.
 */
export async function resolveManualRefund(deps: Pick<RefundDeps, "refunds" | "ledger" | "clock">, input: ResolveManualRefundInput): Promise<Refund> {
  const updated = await deps.refunds.updateIfStatus(input.refundId, "PENDING_MANUAL", {
    status: input.outcome,
    resolutionNote: input.note,
    updatedAt: deps.clock.now(),
  });
  const refund = updated ?? (await deps.refunds.findByIdAnyScope(input.refundId));
  if (refund === undefined) throw GatewayError.notFound("refund", input.refundId);
  if (refund.status !== input.outcome) {
    throw new GatewayError("INVALID_STATE", `The refund is ${refund.status}, not waiting for manual processing.`, { metadata: { status: refund.status } });
  }
  if (refund.status === "FAILED") await deps.ledger.release(refund.sessionId, refund.id);
  return refund;
}
