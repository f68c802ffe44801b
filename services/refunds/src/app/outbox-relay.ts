import {
  DEFAULT_OUTBOX_BATCH_SIZE,
  DEFAULT_OUTBOX_POLL_INTERVAL_MS,
  EVENT_SUBJECT_PREFIX,
  createPollingLoop,
  type OutboxRelay,
  type OutboxRelayBaseOptions,
} from "@gateway/platform";
import type { RefundOutboxStore } from "./ports.js";

export { DEFAULT_OUTBOX_POLL_INTERVAL_MS, EVENT_SUBJECT_PREFIX, type OutboxRelay } from "@gateway/platform";

export interface OutboxRelayOptions extends OutboxRelayBaseOptions {
  store: RefundOutboxStore;
}

/**
 * Publishes the events refunds store in their outbox. An event is marked published only after
 * the bus stored it (JetStream's ack), so a crash in between publishes the same event id again,
 * which the stream drops as a duplicate (Nats-Msg-Id = event id) and the webhooks service
 * ignores (it records events by id). A failed publish leaves the event for the next look.
 * Several relays (replicas) may run at once: at worst they publish one id twice, dropped the
 * same way.
 */
export function createOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  const batchSize = o.batchSize ?? DEFAULT_OUTBOX_BATCH_SIZE;
  const subjectPrefix = o.subjectPrefix ?? EVENT_SUBJECT_PREFIX;

  /** One look; `more` says the batch was full and went out cleanly, so look again at once. */
  async function pass(): Promise<{ published: number; more: boolean }> {
    const pending = await o.store.findPendingOutbox(batchSize);
    o.backlog?.(pending);
    let published = 0;
    let failed = false;
    // Each refund has at most one event, so there is no order to keep between them.
    await Promise.all(
      pending.map(async (event) => {
        try {
          await o.bus.publish({ id: event.eventId, subject: `${subjectPrefix}.${event.type}`, data: event.payload });
        } catch (err) {
          failed = true;
          o.logger.warn({ err, eventId: event.eventId, refundId: event.refundId, type: event.type }, "refund event not published yet, will retry");
          return;
        }
        published++;
        try {
          await o.store.markOutboxPublished(event.refundId, event.eventId, o.clock.now());
        } catch (err) {
          // Published but not marked: the next look publishes it again and the stream drops the duplicate.
          failed = true;
          o.logger.warn({ err, eventId: event.eventId, refundId: event.refundId }, "published refund event not marked yet, will retry");
        }
      }),
    );
    return { published, more: pending.length >= batchSize && !failed };
  }

  const loop = createPollingLoop({
    pass,
    intervalMs: o.pollIntervalMs ?? DEFAULT_OUTBOX_POLL_INTERVAL_MS,
    logger: o.logger,
    failureMessage: "could not read the refund event outbox, will retry",
  });
  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    wake: () => loop.wake(),
    async runOnce() {
      return (await pass()).published;
    },
  };
}
