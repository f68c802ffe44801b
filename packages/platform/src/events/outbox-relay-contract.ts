import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import type { EventBus } from "./event-bus.js";

/** Events are published on `gateway.events.<type>`, e.g. gateway.events.session.succeeded. */
export const EVENT_SUBJECT_PREFIX = "gateway.events";

/**
 * The relay is woken by every write that fills the outbox; the poll only catches what a wake-up
 * missed (a failed publish, another replica that crashed before publishing). Issue 12: at 200 ms
 * the idle looks alone kept the database busy.
 */
export const DEFAULT_OUTBOX_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_OUTBOX_BATCH_SIZE = 100;

/** What every service's outbox relay is given, besides its own store. */
export interface OutboxRelayBaseOptions {
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Pause between looks at the outbox when there is nothing to do; default 1 s. */
  pollIntervalMs?: number;
  /** Most events taken per look; default 100. */
  batchSize?: number;
  /** Subjects are `<prefix>.<event type>`; default `gateway.events` (tests use a space of their own). */
  subjectPrefix?: string;
  /** Told what each look found pending (at most batchSize events), for the backlog metrics. */
  backlog?: (pending: readonly { occurredAt: Date }[]) => void;
}

/** A service's outbox relay: a polling loop publishing stored events, woken after each change. */
export interface OutboxRelay {
  /** Starts the loop (idempotent). */
  start(): void;
  /** Stops the loop; resolves once the look in progress has finished. */
  stop(): Promise<void>;
  /** Publishes at once: events were just stored. */
  wake(): void;
  /** One look: publishes what is pending now, returns how many were published. */
  runOnce(): Promise<number>;
}
