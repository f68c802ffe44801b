import { type Clock, systemClock } from "../clock.js";
import type { Logger } from "../logger.js";
import {
  DEFAULT_RETRY_ON_ERROR_MS,
  type EventBus,
  type EventHandler,
  type EventOutcome,
  type EventSubscribeOptions,
  type EventSubscription,
  type PublishedEvent,
} from "./event-bus.js";
import { traceHandle, tracePublish } from "./event-tracing.js";
import { assertValidSubject, subjectMatches } from "./subject-filter.js";

export interface InMemoryEventBusOptions {
  /** Time source for the dedupe window. */
  clock?: Clock;
  /** Ids seen within this window are dropped; default 2 min, as the JetStream stream. */
  duplicateWindowMs?: number;
  /** Oldest events are forgotten past this count (a stream's limit); default 10 000. */
  maxRetainedEvents?: number;
  retryOnErrorMs?: number;
  logger?: Logger;
  /**
   * Hand-off mode: `publish` resolves only once every durable consumer whose subjects match has
   * finished with the event (ack or reject), and throws when that takes longer than this. A
   * publisher that marks its outbox after `publish` (the relays) then never marks an event no
   * consumer has stored yet, so a process stopping with events in this log loses none: the
   * outbox, in MongoDB, still holds them and the relay publishes them again after the restart.
   */
  handOffTimeoutMs?: number;
}

/** An event published in hand-off mode, waiting for the durables that still have to finish with it. */
interface HandOff {
  waiting: Set<string>;
  done: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
}

interface StoredEvent {
  seq: number;
  id: string;
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
}

interface Subscriber {
  handler: EventHandler;
  concurrency: number;
  inFlight: number;
  active: boolean;
  running: Set<Promise<void>>;
}

/** A durable consumer: its position in the log, redeliveries due, and who shares the work. */
interface Durable {
  name: string;
  subjects: string[];
  cursor: number;
  due: StoredEvent[];
  deliveries: Map<number, number>;
  subscribers: Subscriber[];
  nextSubscriber: number;
  pumpScheduled: boolean;
}

/**
 * The event bus in one process (embedded mode, unit tests), with the JetStream adapter's
 * semantics: a retained log, durable consumers that start from the oldest retained event,
 * dedupe by id within a window, redelivery after `retryAfterMs`, and "reject" as final.
 */
export class InMemoryEventBus implements EventBus {
  private readonly log: StoredEvent[] = [];
  private nextSeq = 1;
  private readonly seen = new Map<string, number>();
  private readonly durables = new Map<string, Durable>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly handOffs = new Map<string, HandOff>();
  private closed = false;
  private readonly clock: Clock;
  private readonly duplicateWindowMs: number;
  private readonly maxRetained: number;
  private readonly retryOnErrorMs: number;

  constructor(private readonly o: InMemoryEventBusOptions = {}) {
    this.clock = o.clock ?? systemClock;
    this.duplicateWindowMs = o.duplicateWindowMs ?? 120_000;
    this.maxRetained = o.maxRetainedEvents ?? 10_000;
    this.retryOnErrorMs = o.retryOnErrorMs ?? DEFAULT_RETRY_ON_ERROR_MS;
  }

  async publish(e: PublishedEvent): Promise<void> {
    if (this.closed) throw new Error("event bus is closed");
    if (!e.id) throw new Error("an event needs an id");
    assertValidSubject(e.subject, false);
    if (this.isDuplicate(e.id)) {
      // A repeat of an event still being handed off is answered when the first one is.
      const pending = this.handOffs.get(e.id);
      if (pending) await this.awaitHandOff(pending);
      return;
    }
    await tracePublish(e.subject, e.headers, async (headers) => {
      this.log.push({ seq: this.nextSeq++, id: e.id, subject: e.subject, data: e.data, headers });
      if (this.log.length > this.maxRetained) this.log.splice(0, this.log.length - this.maxRetained);
    });
    const handOff = this.o.handOffTimeoutMs === undefined ? undefined : this.startHandOff(e.id, e.subject);
    for (const durable of this.durables.values()) this.schedulePump(durable);
    if (handOff) await this.awaitHandOff(handOff);
  }

  private startHandOff(id: string, subject: string): HandOff | undefined {
    const waiting = new Set(
      [...this.durables.values()]
        .filter((d) => d.subjects.some((f) => subjectMatches(f, subject)))
        .map((d) => d.name),
    );
    if (waiting.size === 0) return undefined;
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    done.catch(() => undefined); // a hand-off nobody awaits any more must not be an unhandled rejection
    const handOff: HandOff = { waiting, done, resolve, reject };
    this.handOffs.set(id, handOff);
    return handOff;
  }

  private async awaitHandOff(handOff: HandOff): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("event not yet handled by its consumers; publish it again later")),
        this.o.handOffTimeoutMs,
      );
    });
    try {
      await Promise.race([handOff.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private finishHandOff(durable: Durable, id: string): void {
    const handOff = this.handOffs.get(id);
    if (!handOff) return;
    handOff.waiting.delete(durable.name);
    if (handOff.waiting.size > 0) return;
    this.handOffs.delete(id);
    handOff.resolve();
  }

  async subscribe(o: EventSubscribeOptions): Promise<EventSubscription> {
    if (this.closed) throw new Error("event bus is closed");
    if (o.subjects.length === 0) throw new Error("subscribe needs at least one subject");
    for (const subject of o.subjects) assertValidSubject(subject, true);
    let durable = this.durables.get(o.durable);
    if (!durable) {
      durable = {
        name: o.durable,
        subjects: o.subjects,
        cursor: 1,
        due: [],
        deliveries: new Map(),
        subscribers: [],
        nextSubscriber: 0,
        pumpScheduled: false,
      };
      this.durables.set(o.durable, durable);
    }
    durable.subjects = o.subjects; // like a consumer update: the latest filter wins
    const sub: Subscriber = {
      handler: o.handler,
      concurrency: Math.max(1, o.concurrency ?? 1),
      inFlight: 0,
      active: true,
      running: new Set(),
    };
    durable.subscribers.push(sub);
    this.schedulePump(durable);
    const owner = durable;
    return {
      stop: async () => {
        sub.active = false;
        owner.subscribers = owner.subscribers.filter((s) => s !== sub);
        await Promise.all(sub.running);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const handOff of this.handOffs.values())
      handOff.reject(new Error("event bus closed before the event was handled"));
    this.handOffs.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const running: Promise<void>[] = [];
    for (const durable of this.durables.values()) {
      for (const sub of durable.subscribers) {
        sub.active = false;
        running.push(...sub.running);
      }
      durable.subscribers = [];
    }
    await Promise.all(running);
  }

  private isDuplicate(id: string): boolean {
    const now = this.clock.now().getTime();
    for (const [seenId, at] of this.seen) {
      if (now - at < this.duplicateWindowMs) break; // insertion order = time order
      this.seen.delete(seenId);
    }
    if (this.seen.has(id)) return true;
    this.seen.set(id, now);
    return false;
  }

  /** Deliveries start on a later turn, never inside the publisher's call. */
  private schedulePump(durable: Durable): void {
    if (durable.pumpScheduled || this.closed) return;
    durable.pumpScheduled = true;
    setImmediate(() => {
      durable.pumpScheduled = false;
      this.pump(durable);
    });
  }

  private pump(durable: Durable): void {
    for (;;) {
      const sub = this.freeSubscriber(durable);
      if (!sub) return;
      const event = durable.due.shift() ?? this.nextFromLog(durable);
      if (!event) return;
      this.deliver(durable, sub, event);
    }
  }

  private freeSubscriber(durable: Durable): Subscriber | undefined {
    const subs = durable.subscribers;
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[(durable.nextSubscriber + i) % subs.length]!;
      if (sub.active && sub.inFlight < sub.concurrency) {
        durable.nextSubscriber = (durable.nextSubscriber + i + 1) % subs.length;
        return sub;
      }
    }
    return undefined;
  }

  private nextFromLog(durable: Durable): StoredEvent | undefined {
    const first = this.log[0]?.seq ?? this.nextSeq;
    if (durable.cursor < first) durable.cursor = first; // older events were dropped by retention
    while (durable.cursor < this.nextSeq) {
      const event = this.log[durable.cursor - first]!;
      durable.cursor++;
      if (durable.subjects.some((f) => subjectMatches(f, event.subject))) return event;
    }
    return undefined;
  }

  private deliver(durable: Durable, sub: Subscriber, event: StoredEvent): void {
    const deliveryCount = (durable.deliveries.get(event.seq) ?? 0) + 1;
    durable.deliveries.set(event.seq, deliveryCount);
    sub.inFlight++;
    const received = {
      id: event.id,
      subject: event.subject,
      data: event.data,
      headers: { ...event.headers },
      deliveryCount,
    };
    const run = traceHandle(received, () => sub.handler(received))
      .catch((err: unknown): EventOutcome => {
        this.o.logger?.warn(
          { err, eventId: event.id, subject: event.subject },
          "event handler failed, will redeliver",
        );
        return { retryAfterMs: this.retryOnErrorMs };
      })
      .then((outcome) => {
        if (outcome === "ack" || outcome === "reject") {
          durable.deliveries.delete(event.seq);
          this.finishHandOff(durable, event.id);
        } else this.redeliverLater(durable, event, outcome.retryAfterMs);
      })
      .finally(() => {
        sub.inFlight--;
        sub.running.delete(run);
        this.schedulePump(durable);
      });
    sub.running.add(run);
  }

  private redeliverLater(durable: Durable, event: StoredEvent, ms: number): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        durable.due.push(event);
        this.schedulePump(durable);
      },
      Math.max(0, ms),
    );
    this.timers.add(timer);
  }
}
