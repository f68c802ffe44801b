import {
  DEFAULT_OUTBOX_BATCH_SIZE,
  DEFAULT_OUTBOX_POLL_INTERVAL_MS,
  EVENT_SUBJECT_PREFIX,
  createPollingLoop,
  type OutboxRelay,
  type OutboxRelayBaseOptions,
} from "@gateway/platform";
import type { OutboxStore, PendingOutboxEvent } from "./ports.js";

export { DEFAULT_OUTBOX_POLL_INTERVAL_MS, EVENT_SUBJECT_PREFIX, type OutboxRelay } from "@gateway/platform";

export interface OutboxRelayOptions extends OutboxRelayBaseOptions {
  store: OutboxStore;
}

/**
 * Publishes the events sessions append to their outbox. An event is marked published only
 * after the bus stored it (JetStream's ack), so a crash in between only publishes the same
 * event id again, which the stream drops as a duplicate (Nats-Msg-Id = event id). A failed
 * publish leaves the event pending for the next look; a session's events go out in sequence
 * order and one failure holds back its later events. Several relays (replicas) may run at
 * once: at worst they publish the same id twice, which is dropped the same way.
 */
export function createOutboxRelay(o: OutboxRelayOptions): OutboxRelay {
  const batchSize = o.batchSize ?? DEFAULT_OUTBOX_BATCH_SIZE;
  const subjectPrefix = o.subjectPrefix ?? EVENT_SUBJECT_PREFIX;

  async function publishInOrder(events: PendingOutboxEvent[]): Promise<{ published: number; failed: boolean }> {
    let published = 0;
    for (const event of events) {
      try {
        await o.bus.publish({ id: event.eventId, subject: `${subjectPrefix}.${event.type}`, data: event.payload, headers: event.headers });
      } catch (err) {
        o.logger.warn({ err, eventId: event.eventId, sessionId: event.sessionId, type: event.type }, "event not published yet, will retry");
        return { published, failed: true };
      }
      try {
        await o.store.markOutboxPublished(event.sessionId, event.eventId, o.clock.now());
      } catch (err) {
        // Published but not marked: the next look publishes it again and the stream drops the duplicate.
        o.logger.warn({ err, eventId: event.eventId, sessionId: event.sessionId }, "published event not marked yet, will retry");
        return { published: published + 1, failed: true };
      }
      published++;
    }
    return { published, failed: false };
  }

  /** One look; `more` says the batch was full and went out cleanly, so look again at once. */
  async function pass(): Promise<{ published: number; more: boolean }> {
    const pending = await o.store.findPendingOutbox(batchSize);
    o.backlog?.(pending);
    const bySession = new Map<string, PendingOutboxEvent[]>();
    for (const event of pending) {
      const list = bySession.get(event.sessionId) ?? [];
      list.push(event);
      bySession.set(event.sessionId, list);
    }
    const results = await Promise.all([...bySession.values()].map(publishInOrder));
    const published = results.reduce((sum, r) => sum + r.published, 0);
    return { published, more: pending.length >= batchSize && !results.some((r) => r.failed) };
  }

  const loop = createPollingLoop({
    pass,
    intervalMs: o.pollIntervalMs ?? DEFAULT_OUTBOX_POLL_INTERVAL_MS,
    logger: o.logger,
    failureMessage: "could not read the event outbox, will retry",
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
