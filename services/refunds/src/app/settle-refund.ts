import { GatewayError } from "@gateway/platform";
import type { FinalRefundStatus, Refund } from "../domain/refund.js";
import { refundEventTypeFor } from "../domain/refund-events.js";
import type { SettleResult } from "./ports.js";
import type { RefundDeps } from "./refund-deps.js";

export interface SettlementChanges {
  status: FinalRefundStatus;
  automated?: boolean;
  acquirerErrorMessage?: string;
  method?: Refund["method"];
  resolutionNote?: string;
}

/**
 * Ends `refund` (read while PENDING_MANUAL) as `changes.status`, with the refund.succeeded or
 * refund.failed event that tells the merchant, stored in the same write. The event carries the
 * refund as it is right after the change. Whoever settled first wins: the result says whether
 * it was this call, and holds the refund as it stands either way.
 */
export async function settleRefund(
  deps: Pick<RefundDeps, "refunds" | "events" | "outbox" | "clock" | "newId" | "observer">,
  refund: Refund,
  changes: SettlementChanges,
): Promise<SettleResult> {
  const now = deps.clock.now();
  const after: Refund = { ...refund, ...definedOnly(changes), updatedAt: now };
  const event = { eventId: deps.newId("evt"), type: refundEventTypeFor(changes.status), occurredAt: now };
  const result = await deps.refunds.settle(refund.id, {
    ...changes,
    updatedAt: now,
    event: { ...event, payload: deps.events.encode(event, after) },
  });
  // Read a moment ago, gone now: only a store that lost data can do this.
  if (result === undefined)
    throw new GatewayError("INTERNAL", "Internal error.", {
      cause: new Error(`refund ${refund.id} vanished while being settled`),
    });
  // Also when another call won: this one may have finished that call's interrupted write.
  deps.outbox?.wake();
  if (result.won) deps.observer?.refundSettled(changes.status, changes.automated ? "acquirer" : "operations");
  return result;
}

function definedOnly(changes: SettlementChanges): Partial<Refund> {
  const out: Partial<Refund> = {};
  for (const [key, value] of Object.entries(changes))
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}
