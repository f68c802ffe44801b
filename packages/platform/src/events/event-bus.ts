/** An event to publish. `id` is the dedupe key: publishing the same id again is a no-op. */
export interface PublishedEvent {
  id: string;
  subject: string;
  data: Uint8Array;
  headers?: Record<string, string>;
}

/** An event as a handler sees it; `deliveryCount` is 1 on the first delivery. */
export interface ReceivedEvent {
  id: string;
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  deliveryCount: number;
}

/**
 * What to do with a delivered event: "ack" (done), `{ retryAfterMs }` (transient failure,
 * deliver again later) or "reject" (poison: never deliver again). A handler that throws is
 * treated as a transient failure and the event is redelivered.
 */
export type EventHandler = (e: ReceivedEvent) => Promise<"ack" | { retryAfterMs: number } | "reject">;

export type EventOutcome = Awaited<ReturnType<EventHandler>>;

export interface EventSubscribeOptions {
  /** Durable consumer name: subscribers with the same name share the work; progress survives restarts. */
  durable: string;
  /** NATS-style subject filters (`*` one token, `>` the rest). */
  subjects: string[];
  handler: EventHandler;
  /** Events handled at once by this subscriber; default 1 (in order). */
  concurrency?: number;
}

export interface EventSubscription {
  /** Stops delivery; resolves after the handlers already running have finished. */
  stop(): Promise<void>;
}

/** The event bus port: at-least-once delivery to durable consumers, dedupe by event id. */
export interface EventBus {
  /** Resolves only once the event is stored; duplicate ids are dropped. */
  publish(e: PublishedEvent): Promise<void>;
  subscribe(o: EventSubscribeOptions): Promise<EventSubscription>;
  close(): Promise<void>;
}

/** Delay before redelivering an event whose handler threw. */
export const DEFAULT_RETRY_ON_ERROR_MS = 1_000;
