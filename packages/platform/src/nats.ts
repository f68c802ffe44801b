import { JetStreamApiError, jetstreamManager, StorageType, type StreamConfig } from "@nats-io/jetstream";
import { connect, type NatsConnection, nanos } from "@nats-io/transport-node";
import type { Logger } from "./logger.js";

export type { NatsConnection } from "@nats-io/transport-node";

export const DEFAULT_EVENTS_STREAM = "GATEWAY_EVENTS";
export const DEFAULT_EVENT_SUBJECTS = ["gateway.events.>"];

/**
 * Connects to NATS; once connected, the client reconnects forever (a NATS restart must not
 * take a service down). The first connect fails fast so a wrong URL is seen at start.
 * With a logger, disconnects and reconnects are logged.
 */
export async function connectNats(url: string, name: string, logger?: Logger): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(","),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
  });
  if (logger) void logConnectionStatus(nc, logger);
  return nc;
}

async function logConnectionStatus(nc: NatsConnection, logger: Logger): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type === "disconnect") logger.warn({ server: s.server }, "NATS disconnected, reconnecting");
    else if (s.type === "reconnect") logger.info({ server: s.server }, "NATS reconnected");
    else if (s.type === "error") logger.error({ err: s.error }, "NATS connection error");
  }
}

/** Readiness probe for NATS: a round trip to the server. */
export async function pingNats(nc: NatsConnection): Promise<void> {
  if (nc.isClosed()) throw new Error("NATS connection is closed");
  await nc.flush();
}

const STREAM_NAME_IN_USE = 10058;

/**
 * Declares the events stream (file storage, dedupe window) or brings an existing one to this
 * configuration. Safe to run from every service at start, even at the same time.
 */
export async function ensureEventsStream(
  nc: NatsConnection,
  o: { name?: string; subjects?: string[]; duplicateWindowMs?: number; replicas?: number } = {},
): Promise<void> {
  const name = o.name ?? DEFAULT_EVENTS_STREAM;
  // Replicas (GATEWAY_JETSTREAM_REPLICAS): 3 in a clustered NATS keeps the stream through a node loss.
  const wanted = {
    subjects: o.subjects ?? DEFAULT_EVENT_SUBJECTS,
    duplicate_window: nanos(o.duplicateWindowMs ?? 120_000),
    num_replicas: o.replicas ?? 1,
  };
  const jsm = await jetstreamManager(nc);
  const exists = await jsm.streams.info(name).then(
    () => true,
    (err: unknown) => {
      if (err instanceof JetStreamApiError && err.code === 10059) return false; // stream not found
      throw err;
    },
  );
  if (!exists) {
    const config: Partial<StreamConfig> & { name: string } = { name, storage: StorageType.File, ...wanted };
    try {
      await jsm.streams.add(config);
      return;
    } catch (err) {
      // Another service created it between our look-up and add: fall through to update.
      if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
    }
  }
  await jsm.streams.update(name, wanted);
}
