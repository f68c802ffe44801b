import { createGenericOutboxRelay, type OutboxRelay, type OutboxRelayBaseOptions } from "@gateway/platform";
import type { OutboxStore, PendingOutboxEvent } from "./ports.js";

export { DEFAULT_OUTBOX_POLL_INTERVAL_MS, EVENT_SUBJECT_PREFIX, type OutboxRelay } from "@gateway/platform";

export interface OutboxRelayOptions extends OutboxRelayBaseOptions {
  store: OutboxStore;
}

/** Publishes the events sessions append to their outbox; a session's events in sequence order. */
export function createOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  return createGenericOutboxRelay<PendingOutboxEvent>({
    ...o,
    ownerOf: (e) => e.sessionId,
    ownerLogKey: "sessionId",
    eventNoun: "event",
  });
}
