import type { FinalRefundStatus } from "./refund.js";

/** What merchants are told when a refund is final (docs/api/webhooks.md#refund-events). */
export type RefundEventType = "refund.succeeded" | "refund.failed";

export function refundEventTypeFor(status: FinalRefundStatus): RefundEventType {
  return status === "SUCCEEDED" ? "refund.succeeded" : "refund.failed";
}

/** A refund's event as its outbox keeps it until the relay has published it. */
export interface RefundOutboxEvent {
  /** `evt_…`: the bus message id, so a repeated publish is dropped as a duplicate. */
  eventId: string;
  type: RefundEventType;
  occurredAt: Date;
  /** The protobuf gateway.events.v1.RefundEvent, published as it is. */
  payload: Uint8Array;
}

/** An event still to publish, with the refund whose outbox holds it. */
export interface PendingRefundEvent extends RefundOutboxEvent {
  refundId: string;
}
