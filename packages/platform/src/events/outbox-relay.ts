import { createPollingLoop, IDLE_BACKOFF_INTERVALS } from "../polling-loop.js";
import {
  DEFAULT_OUTBOX_BATCH_SIZE,
  DEFAULT_OUTBOX_POLL_INTERVAL_MS,
  EVENT_SUBJECT_PREFIX,
  type OutboxRelay,
  type OutboxRelayBaseOptions,
} from "./outbox-relay-contract.js";

/** An outbox entry not yet published, as any service's store hands it to the relay. */
export interface PendingEvent {
  eventId: string;
  type: string;
  payload: Uint8Array;
  headers?: Record<string, string>;
  /** When the fact happened: the backlog metrics report the oldest pending event's age. */
  occurredAt: Date;
}

/** The outbox side of a service's store: `owner` is the record holding the outbox (a session, a refund). */
export interface OutboxStoreOf<E extends PendingEvent> {
  /** Up to `limit` unpublished events; each owner's in the order they must go out. */
  findPendingOutbox(limit: number): Promise<E[]>;
  /** Marks one event published; idempotent. */
  markOutboxPublished(ownerId: string, eventId: string, publishedAt: Date): Promise<void>;
}

export interface GenericOutboxRelayOptions<E extends PendingEvent> extends OutboxRelayBaseOptions {
  store: OutboxStoreOf<E>;
  /** The id of the record an event belongs to. */
  ownerOf(event: E): string;
  /** The log field naming that record, e.g. "sessionId". */
  ownerLogKey: string;
  /** Names the events in warnings, e.g. "event" or "refund event". */
  eventNoun: string;
}

/**
 * Publishes the events a service stores in its outbox. An event is marked published only after
 * the bus stored it (JetStream's ack), so a crash in between publishes the same event id again,
 * which the stream drops as a duplicate (Nats-Msg-Id = event id). A failed publish leaves the
 * event pending for the next look; one owner's events go out in order and one failure holds
 * back its later events, while different owners' events go out concurrently. Several relays
 * (replicas) may run at once: at worst they publish the same id twice, dropped the same way.
 * The loop is woken by the writes that fill the outbox (wake()); its poll is a safety net.
 */
export function createGenericOutboxRelay<E extends PendingEvent>(
  o: GenericOutboxRelayOptions<E>,
): OutboxRelay {
  const batchSize = o.batchSize ?? DEFAULT_OUTBOX_BATCH_SIZE;
  const subjectPrefix = o.subjectPrefix ?? EVENT_SUBJECT_PREFIX;

  async function publishInOrder(events: E[]): Promise<{ published: number; failed: boolean }> {
    let published = 0;
    for (const event of events) {
      const owner = { [o.ownerLogKey]: o.ownerOf(event) };
      try {
        await o.bus.publish({
          id: event.eventId,
          subject: `${subjectPrefix}.${event.type}`,
          data: event.payload,
          ...(event.headers ? { headers: event.headers } : {}),
        });
      } catch (err) {
        o.logger.warn(
          { err, eventId: event.eventId, ...owner, type: event.type },
          `${o.eventNoun} not published yet, will retry`,
        );
        return { published, failed: true };
      }
      try {
        await o.store.markOutboxPublished(o.ownerOf(event), event.eventId, o.clock.now());
      } catch (err) {
        // Published but not marked: the next look publishes it again and the stream drops the duplicate.
        o.logger.warn(
          { err, eventId: event.eventId, ...owner },
          `published ${o.eventNoun} not marked yet, will retry`,
        );
        return { published: published + 1, failed: true };
      }
      published++;
    }
    return { published, failed: false };
  }

  /** One look; `more` says the batch was full and went out cleanly, so look again at once. */
  async function pass(): Promise<{ published: number; more: boolean; idle: boolean }> {
    const pending = await o.store.findPendingOutbox(batchSize);
    o.backlog?.(pending);
    const byOwner = new Map<string, E[]>();
    for (const event of pending) {
      const owner = o.ownerOf(event);
      const list = byOwner.get(owner);
      if (list) list.push(event);
      else byOwner.set(owner, [event]);
    }
    const results = await Promise.all([...byOwner.values()].map(publishInOrder));
    const published = results.reduce((sum, r) => sum + r.published, 0);
    return {
      published,
      more: pending.length >= batchSize && !results.some((r) => r.failed),
      idle: pending.length === 0,
    };
  }

  const intervalMs = o.pollIntervalMs ?? DEFAULT_OUTBOX_POLL_INTERVAL_MS;
  const loop = createPollingLoop({
    pass,
    intervalMs,
    // Writes wake the relay; while none come, the safety-net look backs off.
    maxIdleIntervalMs: intervalMs * IDLE_BACKOFF_INTERVALS,
    logger: o.logger,
    failureMessage: `could not read the ${o.eventNoun} outbox, will retry`,
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
