import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { fromMinorUnits } from "@gateway/money";
import { RefundMethod, type RefundSchema, RefundStatus, RefundType } from "@gateway/proto";
import type { Refund } from "../domain/refund.js";

const TYPE = { FULL: RefundType.FULL, PARTIAL: RefundType.PARTIAL } as const;
const STATUS = {
  SUCCEEDED: RefundStatus.SUCCEEDED,
  PENDING_MANUAL: RefundStatus.PENDING_MANUAL,
  FAILED: RefundStatus.FAILED,
} as const;
const METHOD = { REFUND: RefundMethod.REFUND, REVERSAL: RefundMethod.REVERSAL } as const;

export function refundToProto(r: Refund): MessageInitShape<typeof RefundSchema> {
  return {
    id: r.id,
    sessionId: r.sessionId,
    scope: { merchantId: r.scope.merchantId, livemode: r.scope.livemode },
    refundType: TYPE[r.type],
    status: STATUS[r.status],
    amount: fromMinorUnits(r.amountMinor, r.currency),
    currency: r.currency,
    reason: r.reason,
    metadataJson: r.metadataJson,
    automated: r.automated,
    acquirerErrorMessage: r.automated ? "" : r.acquirerErrorMessage,
    createdAt: timestampFromDate(r.createdAt),
    method: METHOD[r.method],
    resolutionNote: r.resolutionNote ?? "",
  };
}

export function refundTypeFromProto(t: RefundType): "FULL" | "PARTIAL" | undefined {
  if (t === RefundType.FULL) return "FULL";
  if (t === RefundType.PARTIAL) return "PARTIAL";
  return undefined;
}
