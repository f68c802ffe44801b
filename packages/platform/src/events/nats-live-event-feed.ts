import type { NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "../logger.js";
import type { LiveEvent, LiveEventFeed } from "./live-event-feed.js";

/** Core NATS subject prefix of the live feed; one subject per merchant. */
export const LIVE_EVENTS_SUBJECT_PREFIX = "gateway.live";

/** The merchant's subject: its id base64url-encoded, so no id can add a token or a wildcard. */
export function liveEventsSubject(merchantId: string): string {
  return `${LIVE_EVENTS_SUBJECT_PREFIX}.${Buffer.from(merchantId, "utf8").toString("base64url")}`;
}

/**
 * The live feed over core NATS, shared by every webhooks and edge replica: whichever webhooks
 * replica records an event publishes it, and whichever edge holds the developer's stream
 * receives it. Core NATS, not JetStream: nothing is kept for a listener that is not there
 * (see LiveEventFeed). The connection is the caller's, opened and closed by it.
 */
export class NatsLiveEventFeed implements LiveEventFeed {
  constructor(
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
  ) {}

  publish(merchantId: string, event: LiveEvent): void {
    if (this.nc.isClosed()) return;
    try {
      this.nc.publish(liveEventsSubject(merchantId), JSON.stringify(event));
    } catch (err) {
      this.logger.warn({ err, eventId: event.id }, "live event not offered to listeners");
    }
  }

  async subscribe(merchantId: string, listener: (event: LiveEvent) => void): Promise<() => void> {
    const subscription = this.nc.subscribe(liveEventsSubject(merchantId), {
      callback: (err, msg) => {
        if (err) return;
        const event = readLiveEvent(msg.string());
        if (event) listener(event);
      },
    });
    // Registered with the server before the caller tells its client that it is listening.
    await this.nc.flush();
    return () => subscription.unsubscribe();
  }

  async close(): Promise<void> {}
}

function readLiveEvent(text: string): LiveEvent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LiveEvent>;
    if (typeof value.id === "string" && typeof value.type === "string" && typeof value.body === "string")
      return { id: value.id, type: value.type, body: value.body };
  } catch {
    // A message that is not ours: ignored like any other stranger on the subject.
  }
  return undefined;
}
