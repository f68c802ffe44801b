import { connectNats, type LiveEventFeed, type Logger, NatsLiveEventFeed } from "@gateway/platform";

/**
 * The distributed edge hears test-mode events for `listen` on core NATS. Like the key
 * revocations, NATS is not needed for the edge to start: without it `listen` answers 503
 * on this replica, and everything else works.
 */
export async function openLiveEventFeed(
  natsUrl: string | undefined,
  logger: Logger,
): Promise<LiveEventFeed | undefined> {
  if (!natsUrl) return undefined;
  try {
    const nc = await connectNats(natsUrl, "edge-live-events", logger);
    const feed = new NatsLiveEventFeed(nc, logger);
    return {
      publish: (merchantId, event) => feed.publish(merchantId, event),
      subscribe: (merchantId, listener) => feed.subscribe(merchantId, listener),
      close: () => nc.close(),
    };
  } catch (err) {
    logger.warn(
      { err },
      "NATS unavailable: `listen` event streams are refused on this edge until it restarts",
    );
    return undefined;
  }
}
