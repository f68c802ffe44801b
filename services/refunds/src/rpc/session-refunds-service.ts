import type { ServiceImpl } from "@connectrpc/connect";
import { scopeFromProto } from "@gateway/platform";
import type { SessionRefundsService } from "@gateway/proto";
import type { RefundDeps } from "../app/refund-deps.js";
import { listSessionRefunds, MAX_SESSION_REFUNDS } from "../app/session-refunds.js";
import { refundToProto } from "./refund-to-proto.js";

/** Connect handlers for SessionRefundsService: proto in, use case, proto out. */
export function createSessionRefundsHandlers(
  deps: Pick<RefundDeps, "refunds">,
): ServiceImpl<typeof SessionRefundsService> {
  return {
    async listSessionRefunds(req) {
      const refunds = await listSessionRefunds(deps, scopeFromProto(req.scope), {
        sessionId: req.sessionId,
        limit: req.limit === 0 ? MAX_SESSION_REFUNDS : req.limit,
      });
      return { refunds: refunds.map(refundToProto) };
    },
  };
}
