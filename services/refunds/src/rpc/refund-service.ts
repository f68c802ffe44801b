import type { ServiceImpl } from "@connectrpc/connect";
import { GatewayError, scopeFromProto } from "@gateway/platform";
import { ManualOutcome, type RefundService } from "@gateway/proto";
import { createRefund } from "../app/create-refund.js";
import { getRefund, listManualRefunds, resolveManualRefund } from "../app/manual-refunds.js";
import type { RefundDeps } from "../app/refund-deps.js";
import { refundToProto, refundTypeFromProto } from "./refund-to-proto.js";

const DEFAULT_MANUAL_PAGE = 100;

/** Connect handlers for RefundService: proto in, use case, proto out. No rules live here. */
export function createRefundServiceHandlers(deps: RefundDeps): ServiceImpl<typeof RefundService> {
  return {
    async createRefund(req) {
      const type = refundTypeFromProto(req.refundType);
      const refund = await createRefund(deps, {
        scope: scopeFromProto(req.scope),
        sessionId: req.sessionId,
        type,
        ...(req.amount !== undefined ? { amount: req.amount } : {}),
        ...(req.reason !== undefined ? { reason: req.reason } : {}),
        ...(req.metadataJson !== undefined ? { metadataJson: req.metadataJson } : {}),
        ...(req.idempotencyKey !== undefined ? { idempotencyKey: req.idempotencyKey } : {}),
      });
      return { refund: refundToProto(refund) };
    },
    async getRefund(req) {
      return { refund: refundToProto(await getRefund(deps, scopeFromProto(req.scope), req.refundId)) };
    },
    async listManualRefunds(req) {
      const refunds = await listManualRefunds(deps, req.limit === 0 ? DEFAULT_MANUAL_PAGE : req.limit);
      return { refunds: refunds.map(refundToProto) };
    },
    async resolveManualRefund(req) {
      const outcome =
        req.outcome === ManualOutcome.SUCCEEDED
          ? "SUCCEEDED"
          : req.outcome === ManualOutcome.FAILED
            ? "FAILED"
            : undefined;
      if (outcome === undefined) {
        throw GatewayError.validation([
          { field: "outcome", code: "required", message: "outcome must be SUCCEEDED or FAILED" },
        ]);
      }
      return {
        refund: refundToProto(
          await resolveManualRefund(deps, { refundId: req.refundId, outcome, note: req.note }),
        ),
      };
    },
  };
}
