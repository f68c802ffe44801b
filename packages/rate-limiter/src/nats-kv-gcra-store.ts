import { JetStreamApiCodes, JetStreamApiError, jetstream } from "@nats-io/jetstream";
import { type KV, Kvm } from "@nats-io/kv";
import type { NatsConnection } from "@nats-io/transport-node";
import { assertValidStoreKey, assertValidTat, type GcraStore } from "./gcra-store.js";
import { MAX_BURST_WINDOW_MS } from "./rate-limit-policy.js";

export interface NatsKvGcraStoreOptions {
  nc: NatsConnection;
  /** KV bucket name; "gateway_rate_limits" by default. Every edge replica must use the same one. */
  bucket?: string;
  /**
   * Bucket TTL (stream max_age): a key not written for this long is dropped. Must outlast the
   * longest burst window of the policy (at most MAX_BURST_WINDOW_MS); default twice that.
   */
  ttlMs?: number;
  /** Replicas of the bucket when it is created (3 in a clustered NATS); an existing bucket keeps its own. Default 1. */
  replicas?: number;
  /** Per-operation JetStream timeout; the limiter has its own (250 ms) on top. Default 250 ms. */
  timeoutMs?: number;
}

export const DEFAULT_RATE_LIMIT_BUCKET = "gateway_rate_limits";
const DEFAULT_TTL_MS = 2 * MAX_BURST_WINDOW_MS;
const DEFAULT_OP_TIMEOUT_MS = 250;
const SETUP_TIMEOUT_MS = 5_000;
const WRONG_LAST_SEQUENCE: readonly number[] = [
  JetStreamApiCodes.StreamWrongLastSequence,
  JetStreamApiCodes.StreamWrongLastSequenceUnknown,
];

/**
 * GCRA state in a NATS JetStream KV bucket shared by every edge replica. History 1 (only the
 * latest TAT matters) and a bucket TTL so keys of idle merchants disappear. Compare-and-set is
 * KV create (expects no message for the key) / update (expects the key's last sequence to be the
 * revision we read); the server rejects a stale expectation, which we report as a conflict.
 *
 * The bucket is created if missing (an existing bucket is used as it is: its TTL then counts).
 * NATS 2.10 has no per-message TTL, so the per-write `ttlMs` cannot shorten a key's life: it is
 * only checked against the bucket TTL, because a key dropped before its burst window ends would
 * hand out a fresh burst. Throws when JetStream cannot be reached at creation.
 */
export async function createNatsKvGcraStore(o: NatsKvGcraStoreOptions): Promise<GcraStore> {
  const bucket = o.bucket ?? DEFAULT_RATE_LIMIT_BUCKET;
  const ttlMs = o.ttlMs ?? DEFAULT_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs < 1000)
    throw new TypeError(`NATS KV GCRA store: ttlMs must be a whole number >= 1000, got ${ttlMs}`);

  // Creation may take longer than one request should wait, hence a separate client for setup.
  const admin = await new Kvm(jetstream(o.nc, { timeout: SETUP_TIMEOUT_MS })).create(bucket, {
    history: 1,
    ttl: ttlMs,
    replicas: o.replicas ?? 1,
    description:
      "Edge rate limits: GCRA theoretical arrival time per merchant budget (packages/rate-limiter)",
  });
  const status = await admin.status();
  const kv = await new Kvm(jetstream(o.nc, { timeout: o.timeoutMs ?? DEFAULT_OP_TIMEOUT_MS })).open(bucket, {
    allow_direct: status.streamInfo.config.allow_direct === true,
  });
  return new NatsKvGcraStore(kv, status.ttl);
}

class NatsKvGcraStore implements GcraStore {
  constructor(
    private readonly kv: KV,
    /** max_age of the bucket in ms; 0 = keys never expire. */
    private readonly bucketTtlMs: number,
  ) {}

  async get(key: string): Promise<{ tat: number; revision: number } | undefined> {
    assertValidStoreKey(key);
    const entry = await this.kv.get(key);
    if (entry === null || entry.operation !== "PUT") return undefined;
    const text = entry.string();
    const tat = Number(text);
    if (text.trim() === "" || !Number.isFinite(tat)) {
      throw new Error(`NATS KV GCRA store: key ${key} holds "${text.slice(0, 40)}", not a TAT`);
    }
    return { tat, revision: entry.revision };
  }

  async compareAndSet(
    key: string,
    tat: number,
    revision: number | undefined,
    ttlMs: number,
  ): Promise<boolean> {
    assertValidStoreKey(key);
    assertValidTat(tat, ttlMs);
    if (this.bucketTtlMs > 0 && ttlMs > this.bucketTtlMs) {
      throw new Error(
        `NATS KV GCRA store: a ${ttlMs} ms burst window needs the bucket TTL (${this.bucketTtlMs} ms) to be at least that long; ` +
          "recreate the bucket with a larger ttlMs",
      );
    }
    // String(number) round-trips a double exactly.
    const value = String(tat);
    try {
      if (revision === undefined) await this.kv.create(key, value);
      else await this.kv.update(key, value, revision);
      return true;
    } catch (err) {
      if (err instanceof JetStreamApiError && WRONG_LAST_SEQUENCE.includes(err.code)) return false;
      throw err;
    }
  }
}
