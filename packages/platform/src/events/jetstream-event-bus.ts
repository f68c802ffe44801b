import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerMessages,
  DeliverPolicy,
  JetStreamApiError,
  type JetStreamManager,
  type JsMsg,
  jetstreamManager,
} from "@nats-io/jetstream";
import { type MsgHdrs, type NatsConnection, nanos, headers as natsHeaders } from "@nats-io/transport-node";
import { GatewayError } from "../errors/gateway-error.js";
import type { Logger } from "../logger.js";
import { DEFAULT_EVENTS_STREAM } from "../nats.js";
import {
  DEFAULT_RETRY_ON_ERROR_MS,
  type EventBus,
  type EventOutcome,
  type EventSubscribeOptions,
  type EventSubscription,
  type PublishedEvent,
  type ReceivedEvent,
} from "./event-bus.js";
import { traceHandle, tracePublish } from "./event-tracing.js";

export interface JetStreamEventBusOptions {
  nc: NatsConnection;
  /** Stream holding the events; declared beforehand by ensureEventsStream. */
  stream?: string;
  logger?: Logger;
  /** Unacknowledged deliveries are redelivered after this; running handlers extend it. Default 30 s. */
  ackWaitMs?: number;
  retryOnErrorMs?: number;
  publishTimeoutMs?: number;
}

const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;

function toNatsHeaders(h: Record<string, string>): MsgHdrs {
  const out = natsHeaders();
  for (const [k, v] of Object.entries(h)) out.set(k, v);
  return out;
}

/** The headers the publisher set; NATS' own (Nats-Msg-Id, ...) are not part of the event. */
function fromNatsHeaders(h: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  for (const k of h.keys()) if (!/^nats-/i.test(k)) out[k] = h.get(k);
  return out;
}

/** Creates the durable consumer, or updates its filter when it already exists. */
async function upsertConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig> & { durable_name: string },
) {
  const exists = await jsm.consumers.info(stream, config.durable_name).then(
    () => true,
    (err: unknown) => {
      if (err instanceof JetStreamApiError && err.code === CONSUMER_NOT_FOUND) return false;
      throw err;
    },
  );
  if (!exists) {
    try {
      await jsm.consumers.add(stream, config);
      return;
    } catch (err) {
      // Another subscriber of the same durable created it first: update it instead.
      if (!(err instanceof JetStreamApiError)) throw err;
    }
  }
  const { filter_subjects, ack_wait, max_deliver } = config;
  await jsm.consumers.update(stream, config.durable_name, { filter_subjects, ack_wait, max_deliver });
}

/** The client recovers by itself; these notices tell an operator why events are not flowing. */
async function watchConsumerHealth(
  messages: ConsumerMessages,
  durable: string,
  logger: Logger,
): Promise<void> {
  const worrying = new Set([
    "heartbeats_missed",
    "consumer_not_found",
    "stream_not_found",
    "consumer_deleted",
    "no_responders",
  ]);
  for await (const notice of messages.status()) {
    if (worrying.has(notice.type))
      logger.warn({ durable, notice: notice.type }, "event consumer cannot receive events");
  }
}

/**
 * The event bus on NATS JetStream: publish with `Nats-Msg-Id` = event id (the stream
 * drops duplicates within its window) and waits for the stream's ack; each durable is an
 * explicit-ack pull consumer shared by every subscriber using that name.
 */
export async function createJetStreamEventBus(o: JetStreamEventBusOptions): Promise<EventBus> {
  const stream = o.stream ?? DEFAULT_EVENTS_STREAM;
  const ackWaitMs = o.ackWaitMs ?? 30_000;
  const retryOnErrorMs = o.retryOnErrorMs ?? DEFAULT_RETRY_ON_ERROR_MS;
  const jsm = await jetstreamManager(o.nc);
  await jsm.streams.info(stream).catch((err: unknown) => {
    if (err instanceof JetStreamApiError && err.code === STREAM_NOT_FOUND) {
      throw new Error(
        `JetStream stream '${stream}' does not exist: declare it with ensureEventsStream first`,
        { cause: err },
      );
    }
    throw err;
  });
  const js = jsm.jetstream();
  const subscriptions = new Set<EventSubscription>();
  let closed = false;
  const assertOpen = () => {
    if (closed) throw new Error("event bus is closed");
  };

  async function handle(msg: JsMsg, handler: EventSubscribeOptions["handler"]): Promise<void> {
    const event: ReceivedEvent = {
      id: msg.headers?.get("Nats-Msg-Id") || `${stream}:${msg.seq}`,
      subject: msg.subject,
      data: msg.data,
      headers: fromNatsHeaders(msg.headers),
      deliveryCount: msg.info.deliveryCount,
    };
    // A slow handler is still alive: keep the server from redelivering to someone else.
    const keepAlive = setInterval(() => msg.working(), Math.max(1_000, ackWaitMs / 3));
    let outcome: EventOutcome;
    try {
      outcome = await traceHandle(event, () => handler(event));
    } catch (err) {
      o.logger?.warn(
        { err, eventId: event.id, subject: event.subject },
        "event handler failed, will redeliver",
      );
      outcome = { retryAfterMs: retryOnErrorMs };
    } finally {
      clearInterval(keepAlive);
    }
    if (outcome === "ack") msg.ack();
    else if (outcome === "reject") msg.term("rejected by handler");
    else msg.nak(Math.max(0, outcome.retryAfterMs));
  }

  return {
    async publish(e: PublishedEvent): Promise<void> {
      assertOpen();
      if (!e.id) throw new Error("an event needs an id");
      await tracePublish(e.subject, e.headers, async (headers) => {
        try {
          await js.publish(e.subject, e.data, {
            msgID: e.id,
            headers: toNatsHeaders(headers),
            timeout: o.publishTimeoutMs ?? 5_000,
          });
        } catch (err) {
          throw new GatewayError("SERVICE_UNAVAILABLE", "The event store did not accept the event.", {
            cause: err,
            metadata: { subject: e.subject },
          });
        }
      });
    },

    async subscribe(s: EventSubscribeOptions): Promise<EventSubscription> {
      assertOpen();
      if (s.subjects.length === 0) throw new Error("subscribe needs at least one subject");
      const concurrency = Math.max(1, s.concurrency ?? 1);
      await upsertConsumer(jsm, stream, {
        durable_name: s.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subjects: s.subjects,
        ack_wait: nanos(ackWaitMs),
        max_deliver: -1, // the handler decides when to give up ("reject")
      });
      const consumer = await js.consumers.get(stream, s.durable);
      const messages = await consumer.consume({ max_messages: concurrency });
      const running = new Set<Promise<void>>();
      let stopping = false;
      if (o.logger) void watchConsumerHealth(messages, s.durable, o.logger);

      const loop = (async () => {
        for await (const msg of messages) {
          while (running.size >= concurrency) await Promise.race(running);
          if (stopping) {
            msg.nak(); // handed back at once for another subscriber
            continue;
          }
          const p: Promise<void> = handle(msg, s.handler).finally(() => running.delete(p));
          running.add(p);
        }
      })().catch((err: unknown) => o.logger?.error({ err, durable: s.durable }, "event consumer stopped"));

      const subscription: EventSubscription = {
        async stop() {
          if (stopping) return loop.then(() => Promise.all(running)).then(() => undefined);
          stopping = true;
          subscriptions.delete(subscription);
          await messages.close();
          await loop;
          await Promise.all(running);
          await o.nc.flush().catch(() => undefined); // acks reach the server before we report stopped
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    /** Stops every subscription; the NATS connection belongs to the caller and stays open. */
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...subscriptions].map((sub) => sub.stop()));
    },
  };
}
