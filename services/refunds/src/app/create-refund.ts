import { derivedId, GatewayError } from "@gateway/platform";
import type { AccountScope, Refund, RefundType } from "../domain/refund.js";
import { amountToTake, requestedAmountMinor } from "../domain/refund-rules.js";
import { refundAtAcquirer } from "./acquirer-step.js";
import { confirmPaidSession } from "./confirm-paid-session.js";
import type { RefundDeps } from "./refund-deps.js";
import { settleRefund } from "./settle-refund.js";

export interface CreateRefundInput {
  scope: AccountScope;
  sessionId: string;
  type: RefundType | undefined;
  amount?: string;
  reason?: string;
  metadataJson?: string;
  /** The merchant's Idempotency-Key: a repeat returns the first request's refund. */
  idempotencyKey?: string;
}

/** Said of a refund between taking its balance and the acquirer's answer. */
export const AWAITING_ACQUIRER =
  "The refund was not confirmed by the acquirer yet; check it with the acquirer before settling it by hand.";

/**
 * Refunds a succeeded session, fully or in part. The amount is taken from the session's
 * balance first (atomically, so concurrent refunds never sum past the payment), then recorded,
 * then sent to the acquirer. The record is stored as PENDING_MANUAL before the acquirer is
 * called, so a process that stops mid-way leaves the refund in operations' queue, never lost.
 * A confirmed refund is settled SUCCEEDED with its refund.succeeded event; one the acquirer
 * could not confirm stays in the queue with the acquirer's reason, and operations settle it.
 */
export async function createRefund(deps: RefundDeps, input: CreateRefundInput): Promise<Refund> {
  // The edge's route schema requires it; a direct gRPC caller may still leave it out.
  if (input.type === undefined) {
    throw GatewayError.validation([
      { field: "refund_type", code: "required", message: "refund_type is required: FULL or PARTIAL" },
    ]);
  }
  const type = input.type as RefundType;

  const keyed =
    input.idempotencyKey !== undefined
      ? idempotentRefundId(input.scope, input.sessionId, input.idempotencyKey)
      : undefined;
  const earlier = keyed !== undefined ? await deps.refunds.findById(input.scope, keyed) : undefined;
  if (earlier) return repeatOf(earlier, type, input.amount);

  const { record, session } = await confirmPaidSession(deps, input.scope, input.sessionId);
  const requested = requestedAmountMinor(type, input.amount, record.currency);
  // The merchant's terminal before anything is taken: a configuration error changes nothing.
  const terminal = await deps.terminals.terminalFor(input.scope);

  const id = keyed ?? deps.newId("re");
  const paidMinor = record.amountMinor;
  const amountMinor = await deps.ledger.reserve(input.sessionId, id, (refundedMinor) =>
    amountToTake(requested, { paidMinor, refundedMinor }),
  );
  const wholePayment = amountMinor === paidMinor;
  const now = deps.clock.now();
  const refund: Refund = {
    id,
    sessionId: input.sessionId,
    scope: input.scope,
    type,
    amountMinor,
    currency: record.currency,
    reason: input.reason ?? "",
    metadataJson: input.metadataJson ?? "",
    status: "PENDING_MANUAL",
    automated: false,
    acquirerErrorMessage: AWAITING_ACQUIRER,
    externalRefundId: id,
    method: wholePayment && session.settled !== true ? "REVERSAL" : "REFUND",
    sessionMerchantReference: record.merchantReference,
    sessionOrderNumber: record.orderNumber,
    sessionWebhookUrl: record.webhookUrl,
    createdAt: now,
    updatedAt: now,
  };
  let inserted: boolean;
  try {
    inserted = await deps.refunds.insert(refund);
  } catch (err) {
    // Nothing was sent to the acquirer: give the balance back, and let the merchant retry.
    await deps.ledger.release(input.sessionId, id).catch(() => undefined);
    throw err;
  }
  if (!inserted) {
    // A concurrent request with the same key won: the balance taken is its refund's, kept as it is.
    const winner = await deps.refunds.findById(input.scope, id);
    if (!winner)
      throw new GatewayError(
        "SERVICE_UNAVAILABLE",
        "The refund is being created by another request; try again.",
      );
    return repeatOf(winner, type, input.amount);
  }

  const result = await refundAtAcquirer(deps.acquirer, {
    terminal,
    acquirerOrderId: record.acquirerOrderId,
    refundId: id,
    amountMinor,
    wholePayment,
    settled: session.settled,
  });
  if (result.status === "PENDING_MANUAL") {
    const stored = await deps.refunds.recordAcquirerAnswer(id, {
      automated: false,
      acquirerErrorMessage: result.acquirerErrorMessage,
      method: result.method,
      updatedAt: deps.clock.now(),
    });
    deps.observer?.refundPendingManual();
    // Settled by operations meanwhile: what they decided is the refund's outcome.
    return stored ?? (await deps.refunds.findByIdAnyScope(id)) ?? { ...refund, ...result };
  }
  const settled = await settleRefund(deps, refund, {
    status: "SUCCEEDED",
    automated: true,
    acquirerErrorMessage: "",
    method: result.method,
  });
  if (!settled.won && settled.refund.status !== "SUCCEEDED") {
    deps.logger.error(
      { refundId: id, sessionId: input.sessionId, status: settled.refund.status, method: result.method },
      "the acquirer confirmed a refund that operations had already settled otherwise; check it with the acquirer",
    );
  }
  return settled.refund;
}

/**
 * The refund id of an Idempotency-Key: derived from the account, mode, session and key, so a
 * repeat (even a concurrent one) lands on the same balance reservation, the same record and the
 * same externalRefundId at the acquirer, and never refunds twice.
 */
export function idempotentRefundId(scope: AccountScope, sessionId: string, key: string): string {
  return derivedId(
    "re",
    `refund idempotency key\n${scope.merchantId}\n${scope.livemode}\n${sessionId}\n${key}`,
  );
}

/** The first request's refund for a repeated key; a different request under it is a conflict. */
function repeatOf(earlier: Refund, type: RefundType, amount: string | undefined): Refund {
  const sameAmount =
    type === "FULL" ||
    (amount !== undefined && safeMinor(type, amount, earlier.currency) === earlier.amountMinor);
  if (earlier.type !== type || !sameAmount) {
    throw new GatewayError(
      "CONFLICT",
      "This Idempotency-Key was already used for a different refund request.",
      {
        metadata: { refund_id: earlier.id },
      },
    );
  }
  return earlier;
}

function safeMinor(type: RefundType, amount: string, currency: string): bigint | undefined {
  try {
    return requestedAmountMinor(type, amount, currency);
  } catch {
    return undefined;
  }
}
