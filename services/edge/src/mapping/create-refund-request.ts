import { create } from "@bufbuild/protobuf";
import {
  type AccountScope,
  type CreateRefundRequest,
  CreateRefundRequestSchema,
  RefundType,
} from "@gateway/proto";
import type { CreateRefundBody } from "../api/schemas/refunds.js";
import { rawMetadata } from "./create-session-request.js";

const REFUND_TYPES: Record<"FULL" | "PARTIAL", RefundType> = {
  FULL: RefundType.FULL,
  PARTIAL: RefundType.PARTIAL,
};

/**
 * Maps a refund body that its route schema (api/schemas/refunds.ts; docs/api/refunds.md#create-a-refund) already accepted to
 * CreateRefundRequest. The refunds service reports what needs its state or the body's meaning
 * (refund_type missing, amount format or absence for PARTIAL). `metadata` goes as the
 * merchant's exact JSON text (`rawText` is the whole body's text).
 */
export function mapCreateRefundBody(
  body: CreateRefundBody,
  rawText: string,
  scope: AccountScope,
  sessionId: string,
): CreateRefundRequest {
  const request = create(CreateRefundRequestSchema, { scope, sessionId });
  if (body.refund_type !== undefined) request.refundType = REFUND_TYPES[body.refund_type];
  if (body.amount !== undefined) request.amount = body.amount;
  if (body.reason !== undefined) request.reason = body.reason;
  if (body.metadata !== undefined) request.metadataJson = rawMetadata(rawText);
  return request;
}
