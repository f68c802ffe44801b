import { type Clock, type Logger, systemClock } from "@gateway/platform";
import {
  createGcraRateLimiter,
  DEFAULT_RATE_LIMIT_BUCKET,
  defaultRateLimitPolicy,
  type GcraStore,
  InMemoryGcraStore,
  type RateLimiter,
  type RateLimitPolicy,
} from "@gateway/rate-limiter";
import { ReconnectingNatsKvStore } from "./reconnecting-nats-kv-store.js";

export interface EdgeRateLimitingOptions {
  /** GATEWAY_RATE_LIMITS as parsed by parseRateLimitConfig; undefined = the default limits (docs/api/limits.md). */
  policy: RateLimitPolicy | "off" | undefined;
  /** NATS shared by every edge replica; without it the limits live in this process only. */
  natsUrl?: string;
  /** Replicas of the KV bucket when this edge creates it (GATEWAY_JETSTREAM_REPLICAS); default 1. */
  kvReplicas?: number;
  /** Distributed mode: limits kept in memory are then per replica, which deserves a warning. */
  distributed?: boolean;
  logger: Logger;
  clock?: Clock;
}

export interface EdgeRateLimiting {
  /** Undefined when rate limiting is off (EdgeDeps.rateLimiter). */
  limiter: RateLimiter | undefined;
  /** Where the limits are kept, for the start log: "off", "memory" or "nats-kv". */
  store: "off" | "memory" | "nats-kv";
  /** Waits for checks in flight, then closes the NATS connection. Call after the HTTP server closed. */
  close(): Promise<void>;
}

/**
 * The edge's rate limiter (docs/api/limits.md#rate-limits) from its configuration: GCRA over the NATS JetStream
 * KV bucket shared by every replica when NATS_URL is given, else over this process's memory
 * (embedded mode). With NATS down, even at start, the limiter fails open to per-replica limits
 * (see @gateway/rate-limiter); the edge keeps serving and /readyz does not depend on NATS.
 */
export async function createEdgeRateLimiting(o: EdgeRateLimitingOptions): Promise<EdgeRateLimiting> {
  const policy = o.policy ?? defaultRateLimitPolicy;
  const clock = o.clock ?? systemClock;
  if (policy === "off") {
    o.logger.info("rate limiting is off (GATEWAY_RATE_LIMITS=off)");
    return { limiter: undefined, store: "off", close: async () => undefined };
  }

  let store: GcraStore;
  let closeStore = async (): Promise<void> => undefined;
  if (o.natsUrl !== undefined && o.natsUrl !== "") {
    const shared = new ReconnectingNatsKvStore({
      natsUrl: o.natsUrl,
      logger: o.logger,
      replicas: o.kvReplicas,
    });
    // Waits for the first attempt only: a NATS outage at start leaves the edge serving, degraded.
    await shared.open();
    store = shared;
    closeStore = () => shared.close();
  } else {
    if (o.distributed === true) {
      o.logger.warn(
        "NATS_URL is not set: rate limits are kept per edge replica; with N replicas a merchant gets up to N times the limits",
      );
    }
    store = new InMemoryGcraStore({ clock });
  }
  const limiter = createGcraRateLimiter({ store, policy, clock, logger: o.logger });
  const kind = store instanceof InMemoryGcraStore ? "memory" : "nats-kv";
  o.logger.info(
    { store: kind, bucket: kind === "nats-kv" ? DEFAULT_RATE_LIMIT_BUCKET : undefined, policy },
    "rate limiting on",
  );
  return {
    limiter,
    store: kind,
    async close() {
      await limiter.close();
      await closeStore();
    },
  };
}
