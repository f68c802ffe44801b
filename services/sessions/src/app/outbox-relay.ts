import type { Clock, EventBus, Logger } from "@gateway/platform";
import type { OutboxSignal, OutboxStore, PendingOutboxEvent } from "./ports.js";

/** Events are published on `gateway.events.<type>`, e.g. gateway.events.session.succeeded. */
export const EVENT_SUBJECT_PREFIX = "gateway.events";

export const DEFAULT_OUTBOX_POLL_INTERVAL_MS = 200;
const DEFAULT_BATCH_SIZE = 100;

export interface OutboxRelayOptions {
  store: OutboxStore;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Pause between looks at the outbox when there is nothing to do; default 200 ms. */
  pollIntervalMs?: number;
  /** Most events taken per look; default 100. */
  batchSize?: number;
  /** Subjects are `<prefix>.<event type>`; default `gateway.events` (tests use a space of their own). */
  subjectPrefix?: string;
}

export interface OutboxRelay extends OutboxSignal {
  /** Starts the loop (idempotent). */
  start(): void;
  /** Stops the loop; resolves once the look in progress has finished. */
  stop(): Promise<void>;
  /** One look: publishes what is pending now, returns how many were published. */
  runOnce(): Promise<number>;
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
  const pollIntervalMs = o.pollIntervalMs ?? DEFAULT_OUTBOX_POLL_INTERVAL_MS;
  const batchSize = o.batchSize ?? DEFAULT_BATCH_SIZE;
  const subjectPrefix = o.subjectPrefix ?? EVENT_SUBJECT_PREFIX;
  let loop: Promise<void> | undefined;
  let stopping = false;
  let woken = false;
  let wakeSleeper: (() => void) | undefined;

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

  function sleep(ms: number): Promise<void> {
    if (woken || stopping) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeSleeper = undefined;
        woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      // The loop must not keep a process alive on its own; the server does.
      timer.unref();
      wakeSleeper = done;
    });
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let more = false;
      try {
        ({ more } = await pass());
      } catch (err) {
        o.logger.warn({ err }, "could not read the event outbox, will retry");
      }
      if (!more) await sleep(pollIntervalMs);
    }
  }

  return {
    start() {
      if (loop) return;
      stopping = false;
      loop = run();
    },
    async stop() {
      stopping = true;
      wakeSleeper?.();
      await loop;
      loop = undefined;
    },
    wake() {
      woken = true;
      wakeSleeper?.();
    },
    async runOnce() {
      return (await pass()).published;
    },
  };
}
