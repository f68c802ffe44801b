import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { fromMinorUnits, parseAmount } from "@gateway/money";
import { type Clock, type FieldViolation, GatewayError, newId } from "@gateway/platform";
import {
  type AccountScope,
  AttemptStatus,
  type CreateRefundRequest,
  type GetRefundRequest,
  type ListManualRefundsRequest,
  ManualOutcome,
  type Refund,
  RefundMethod,
  RefundSchema,
  type RefundService,
  RefundStatus,
  RefundType,
  type ResolveManualRefundRequest,
  type Session,
  type SessionRefundsService,
  SessionStatus,
} from "@gateway/proto";

/** Finds a session of the account, as the real service asks the sessions service. */
export type FakeSessionLookup = (scope: AccountScope, sessionId: string) => Promise<Session | undefined>;

const MAX_MANUAL_PAGE = 500;

/**
 * In-memory test double of gateway.refunds.v1.RefundService with the contract the edge relies
 * on: the edge's input_violations reported with the service's own (refund_type required, PARTIAL
 * amount required and well formed) in one VALIDATION_ERROR; another account's session is
 * NOT_FOUND; only a SUCCEEDED session with a successful attempt is refundable (INVALID_STATE,
 * NO_PAYMENT); refunds never sum past the payment (REFUND_FAILED); an acquirer that does not
 * confirm leaves the refund PENDING_MANUAL in the queue, which resolution settles (FAILED gives
 * the amount back).
 */
export class FakeRefundsService implements ServiceImpl<typeof RefundService> {
  readonly refunds: Refund[] = [];
  /** Every CreateRefundRequest received, to check what the edge sent. */
  readonly createRequests: CreateRefundRequest[] = [];
  readonly listRequests: ListManualRefundsRequest[] = [];
  /** The Idempotency-Key each refund was created with, by refund id. */
  private readonly idempotencyKeys = new Map<string, string>();
  /** The acquirer's answer to the next refunds: undefined confirms, a message refuses. */
  acquirerFailure: string | undefined = undefined;

  constructor(
    private readonly clock: Clock,
    private readonly findSession: FakeSessionLookup,
  ) {}

  createRefund = async (req: CreateRefundRequest) => {
    this.createRequests.push(req);
    const scope = requireScope(req.scope);
    // A repeat with the same Idempotency-Key (same account, mode and session) answers the first refund.
    const keyed = req.idempotencyKey
      ? this.refunds.find(
          (r) =>
            this.idempotencyKeys.get(r.id) === req.idempotencyKey &&
            r.sessionId === req.sessionId &&
            r.scope?.merchantId === scope.merchantId &&
            r.scope.livemode === scope.livemode,
        )
      : undefined;
    if (keyed) return { refund: keyed };
    const violations: FieldViolation[] = req.inputViolations.map(({ field, code, message }) => ({
      field,
      code,
      message,
    }));
    if (req.refundType === RefundType.UNSPECIFIED && !violations.some((v) => v.field === "refund_type")) {
      violations.push({
        field: "refund_type",
        code: "required",
        message: "refund_type is required: FULL or PARTIAL",
      });
    }
    if (violations.length > 0) throw GatewayError.validation(violations);

    const session = await this.findSession(scope, req.sessionId);
    if (!session) throw GatewayError.notFound("session", req.sessionId);
    if (session.status !== SessionStatus.SUCCEEDED) {
      throw new GatewayError(
        "INVALID_STATE",
        `Only a succeeded session can be refunded; this one is ${SessionStatus[session.status]}.`,
      );
    }
    if (!session.attempts.some((a) => a.status === AttemptStatus.SUCCEEDED))
      throw new GatewayError("NO_PAYMENT", "The session has no successful payment to refund.");

    const paidMinor = minor(session.amount, session.currency);
    const leftMinor = paidMinor - this.takenMinor(session.id);
    if (leftMinor <= 0n) throw new GatewayError("REFUND_FAILED", "The session has nothing left to refund.");
    let amountMinor = leftMinor;
    if (req.refundType === RefundType.PARTIAL) {
      if (req.amount === undefined || req.amount === "") {
        throw GatewayError.validation([
          { field: "amount", code: "required", message: "amount is required when refund_type is PARTIAL" },
        ]);
      }
      const parsed = parseAmount(req.amount, session.currency);
      if (!parsed.ok)
        throw GatewayError.validation([{ field: "amount", code: parsed.code, message: parsed.message }]);
      amountMinor = parsed.minor;
      if (amountMinor > leftMinor)
        throw new GatewayError("REFUND_FAILED", "The refund amount exceeds the refundable balance.");
    }

    const automated = this.acquirerFailure === undefined;
    const refund = create(RefundSchema, {
      id: newId("re"),
      sessionId: session.id,
      scope: { merchantId: scope.merchantId, livemode: scope.livemode },
      refundType: req.refundType,
      status: automated ? RefundStatus.SUCCEEDED : RefundStatus.PENDING_MANUAL,
      amount: fromMinorUnits(amountMinor, session.currency),
      currency: session.currency,
      reason: req.reason ?? "",
      metadataJson: req.metadataJson ?? "",
      automated,
      acquirerErrorMessage: this.acquirerFailure ?? "",
      createdAt: timestampFromDate(this.clock.now()),
      method: RefundMethod.REFUND,
    });
    this.refunds.push(refund);
    if (req.idempotencyKey) this.idempotencyKeys.set(refund.id, req.idempotencyKey);
    return { refund };
  };

  /** SessionRefundsService over the same refunds: one session's, in the scope, oldest first. */
  sessionRefundsHandlers(): ServiceImpl<typeof SessionRefundsService> {
    return {
      listSessionRefunds: async (req) => {
        const scope = requireScope(req.scope);
        const refunds = this.refunds.filter(
          (r) =>
            r.sessionId === req.sessionId &&
            r.scope?.merchantId === scope.merchantId &&
            r.scope.livemode === scope.livemode,
        );
        return { refunds };
      },
    };
  }

  getRefund = async (req: GetRefundRequest) => {
    const scope = requireScope(req.scope);
    const refund = this.refunds.find(
      (r) =>
        r.id === req.refundId &&
        r.scope?.merchantId === scope.merchantId &&
        r.scope.livemode === scope.livemode,
    );
    if (!refund) throw GatewayError.notFound("refund", req.refundId);
    return { refund };
  };

  listManualRefunds = async (req: ListManualRefundsRequest) => {
    this.listRequests.push(req);
    const limit = req.limit === 0 ? 100 : req.limit;
    if (limit < 1 || limit > MAX_MANUAL_PAGE) {
      throw GatewayError.validation([
        { field: "limit", code: "invalid", message: `limit must be an integer from 1 to ${MAX_MANUAL_PAGE}` },
      ]);
    }
    // Stored in creation order, so this is oldest first.
    return { refunds: this.refunds.filter((r) => r.status === RefundStatus.PENDING_MANUAL).slice(0, limit) };
  };

  resolveManualRefund = async (req: ResolveManualRefundRequest) => {
    const status =
      req.outcome === ManualOutcome.SUCCEEDED
        ? RefundStatus.SUCCEEDED
        : req.outcome === ManualOutcome.FAILED
          ? RefundStatus.FAILED
          : undefined;
    if (status === undefined)
      throw GatewayError.validation([
        { field: "outcome", code: "required", message: "outcome must be SUCCEEDED or FAILED" },
      ]);
    const refund = this.refunds.find((r) => r.id === req.refundId);
    if (!refund) throw GatewayError.notFound("refund", req.refundId);
    if (refund.status === RefundStatus.PENDING_MANUAL) {
      refund.status = status;
      refund.resolutionNote = req.note;
    } else if (refund.status !== status) {
      throw new GatewayError(
        "INVALID_STATE",
        `The refund is ${RefundStatus[refund.status]}, not waiting for manual processing.`,
      );
    }
    return { refund };
  };

  /** What the session's refunds hold: every refund except FAILED ones (their amount was given back). */
  private takenMinor(sessionId: string): bigint {
    return this.refunds
      .filter((r) => r.sessionId === sessionId && r.status !== RefundStatus.FAILED)
      .reduce((sum, r) => sum + minor(r.amount, r.currency), 0n);
  }
}

function minor(amount: string, currency: string): bigint {
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok) throw new Error(`stored amount ${amount} ${currency} is not valid: ${parsed.message}`);
  return parsed.minor;
}

function requireScope(scope: AccountScope | undefined): AccountScope {
  if (!scope || scope.merchantId === "") throw new GatewayError("UNAUTHORIZED", "No account scope.");
  return scope;
}
