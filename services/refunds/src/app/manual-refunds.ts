import { GatewayError } from "@gateway/platform";
import type { AccountScope, Refund } from "../domain/refund.js";
import type { RefundDeps } from "./refund-deps.js";
import { settleRefund } from "./settle-refund.js";

export async function getRefund(
  deps: Pick<RefundDeps, "refunds">,
  scope: AccountScope,
  refundId: string,
): Promise<Refund> {
  const refund = await deps.refunds.findById(scope, refundId);
  if (refund === undefined) throw GatewayError.notFound("refund", refundId);
  return refund;
}

export const MAX_MANUAL_PAGE = 500;

/** Operations' queue: refunds the acquirer could not confirm, oldest first. */
export async function listManualRefunds(deps: Pick<RefundDeps, "refunds">, limit: number): Promise<Refund[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MANUAL_PAGE) {
    throw GatewayError.validation([
      { field: "limit", code: "invalid", message: `limit must be an integer from 1 to ${MAX_MANUAL_PAGE}` },
    ]);
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
 * Settles a manual refund, with the refund.succeeded or refund.failed event that tells the
 * merchant. FAILED settles the record first and gives the balance back after: a stop in
 * between leaves the balance lower than it could be (safe; repeating the resolution gives it
 * back), never a refund counted as both failed and taken. Repeating a resolution with the same
 * outcome is harmless and emits no second event; another outcome is INVALID_STATE.
 */
export async function resolveManualRefund(
  deps: Pick<RefundDeps, "refunds" | "ledger" | "clock" | "events" | "outbox" | "newId" | "observer">,
  input: ResolveManualRefundInput,
): Promise<Refund> {
  const pending = await deps.refunds.findByIdAnyScope(input.refundId);
  if (pending === undefined) throw GatewayError.notFound("refund", input.refundId);
  const refund =
    pending.status === "PENDING_MANUAL"
      ? (await settleRefund(deps, pending, { status: input.outcome, resolutionNote: input.note })).refund
      : pending;
  if (refund.status !== input.outcome) {
    throw new GatewayError(
      "INVALID_STATE",
      `The refund is ${refund.status}, not waiting for manual processing.`,
      { metadata: { status: refund.status } },
    );
  }
  if (refund.status === "FAILED") await deps.ledger.release(refund.sessionId, refund.id);
  return refund;
}
