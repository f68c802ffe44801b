import { connectNats, type Logger, type NatsConnection } from "@gateway/platform";
import { createNatsKvGcraStore, DEFAULT_RATE_LIMIT_BUCKET, type GcraStore } from "@gateway/rate-limiter";

export interface ReconnectingNatsKvStoreOptions {
  natsUrl: string;
  logger: Logger;
  /** KV bucket shared by every edge replica (default gateway_rate_limits). */
  bucket?: string;
  /** Replicas of the bucket when it is created. */
  replicas?: number;
}

/**
 * The NATS JetStream KV GCRA store, opened on demand. The edge must start and serve while NATS
 * is down (rate limiting degrades, the API stays up), so a failed connect or bucket creation
 * is not fatal: until the bucket is open every store call rejects at once, which the limiter
 * answers on its local per-replica limiter, and each such call starts a new attempt in the
 * background (the limiter probes the store about once per second while degraded, which paces
 * the attempts). Once connected, the NATS client reconnects by itself.
 */
export class ReconnectingNatsKvStore implements GcraStore {
  private store: GcraStore | undefined;
  private nc: NatsConnection | undefined;
  private opening: Promise<void> | undefined;
  private failedBefore = false;
  private closed = false;
  private readonly bucket: string;

  constructor(private readonly options: ReconnectingNatsKvStoreOptions) {
    this.bucket = options.bucket ?? DEFAULT_RATE_LIMIT_BUCKET;
  }

  /** One attempt (shared by concurrent callers) to connect and open the bucket; true once open. */
  async open(): Promise<boolean> {
    if (this.store === undefined && !this.closed) {
      this.opening ??= this.attempt().finally(() => {
        this.opening = undefined;
      });
      await this.opening;
    }
    return this.store !== undefined;
  }

  get isOpen(): boolean {
    return this.store !== undefined;
  }

  get(key: string): Promise<{ tat: number; revision: number } | undefined> {
    return this.current().get(key);
  }

  compareAndSet(key: string, tat: number, revision: number | undefined, ttlMs: number): Promise<boolean> {
    return this.current().compareAndSet(key, tat, revision, ttlMs);
  }

  /** Call after the limiter is closed (no checks in flight). */
  async close(): Promise<void> {
    this.closed = true;
    await this.opening;
    const nc = this.nc;
    this.nc = undefined;
    this.store = undefined;
    if (nc !== undefined && !nc.isClosed()) await nc.close();
  }

  private current(): GcraStore {
    if (this.store !== undefined) return this.store;
    if (this.closed) throw new Error("rate limit store is closed");
    void this.open();
    throw new Error(`rate limit store (NATS KV bucket ${this.bucket}) is not open yet`);
  }

  private async attempt(): Promise<void> {
    const { logger, natsUrl } = this.options;
    try {
      // connectNats fails fast when nobody answers; once connected the client reconnects forever.
      this.nc ??= await connectNats(natsUrl, "edge-rate-limits", logger);
      if (this.closed) return;
      const store = await createNatsKvGcraStore({
        nc: this.nc,
        bucket: this.bucket,
        replicas: this.options.replicas,
      });
      if (this.closed) return;
      this.store = store;
      if (this.failedBefore)
        logger.info(
          { bucket: this.bucket },
          "rate limit store opened; limits are shared across edge replicas",
        );
    } catch (err) {
      // One warning per outage at start: the limiter itself warns (throttled) while it decides locally.
      if (!this.failedBefore) {
        logger.warn(
          { err, bucket: this.bucket },
          "rate limit store (NATS KV) unavailable; limiting per replica until it answers",
        );
      }
      this.failedBefore = true;
    } finally {
      if (this.closed && this.nc !== undefined && !this.nc.isClosed()) await this.nc.close();
    }
  }
}
