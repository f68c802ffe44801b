import { createGenericOutboxRelay, type OutboxRelay, type OutboxRelayBaseOptions } from "@gateway/platform";
import type { PendingRefundEvent } from "../domain/refund-events.js";
import type { RefundOutboxStore } from "./ports.js";

export { DEFAULT_OUTBOX_POLL_INTERVAL_MS, EVENT_SUBJECT_PREFIX, type OutboxRelay } from "@gateway/platform";

export interface OutboxRelayOptions extends OutboxRelayBaseOptions {
  store: RefundOutboxStore;
}

/**
 * Publishes the events refunds store in their outbox (at most one per refund, so no order to
 * keep between them). A re-published id is also ignored by the webhooks service, which records
 * events by id.
 */
export function createOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  return createGenericOutboxRelay<PendingRefundEvent>({
    ...o,
    ownerOf: (e) => e.refundId,
    ownerLogKey: "refundId",
    eventNoun: "refund event",
  });
}
