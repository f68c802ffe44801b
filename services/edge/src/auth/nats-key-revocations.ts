import { connectNats, type Logger, type NatsConnection } from "@gateway/platform";
import type { KeyRevocations } from "./key-revocations.js";

/** Core NATS subject of revoked key ids (the payload is the key id, never the key). */
export const KEY_REVOKED_SUBJECT = "gateway.edge.api_key_revoked";

/** How long an announcement waits for the server's acknowledgement before the revoke answers anyway. */
const ANNOUNCE_FLUSH_TIMEOUT_MS = 2_000;
/** Pause between connection attempts while NATS has not answered yet. */
const RETRY_MS = 2_000;

export interface NatsKeyRevocationsOptions {
  natsUrl: string;
  logger: Logger;
}

/**
 * Revocations over core NATS, shared by every edge replica. Fire and forget on purpose: a
 * replica that is disconnected at the moment misses the message and falls back to the auth
 * cache TTL, which stays the bound on how late a revocation can take effect. NATS being down
 * never fails a revoke (accounts has already stored it) nor stops the edge from starting: the
 * connection is retried in the background.
 */
export class NatsKeyRevocations implements KeyRevocations {
  private nc: NatsConnection | undefined;
  private readonly listeners: Array<(keyId: string) => void> = [];
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private warned = false;

  constructor(private readonly options: NatsKeyRevocationsOptions) {}

  /** One connection attempt now; on failure, more in the background until one succeeds. */
  async open(): Promise<void> {
    if (this.closed || this.nc) return;
    try {
      const nc = await connectNats(this.options.natsUrl, "edge-key-revocations", this.options.logger);
      if (this.closed) {
        await nc.close();
        return;
      }
      this.nc = nc;
      nc.subscribe(KEY_REVOKED_SUBJECT, {
        callback: (err, msg) => {
          if (err) return;
          const keyId = msg.string();
          for (const listener of this.listeners) listener(keyId);
        },
      });
      // The subscription is registered with the server before any revoke of ours is announced.
      await nc.flush();
      if (this.warned) this.options.logger.info("key revocations are shared across edge replicas again");
    } catch (err) {
      if (!this.warned) {
        this.options.logger.warn(
          { err },
          "NATS unavailable: revocations made on other edge replicas take up to the auth cache TTL here",
        );
      }
      this.warned = true;
      this.retry = setTimeout(() => void this.open(), RETRY_MS);
      this.retry.unref();
    }
  }

  async announce(keyId: string): Promise<void> {
    const nc = this.nc;
    if (!nc || nc.isClosed()) {
      this.options.logger.warn(
        { keyId },
        "key revocation not announced (NATS unavailable); other edge replicas drop it after the auth cache TTL",
      );
      return;
    }
    nc.publish(KEY_REVOKED_SUBJECT, keyId);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ANNOUNCE_FLUSH_TIMEOUT_MS);
    });
    try {
      const outcome = await Promise.race([nc.flush().then(() => "flushed" as const), timeout]);
      if (outcome === "timeout")
        this.options.logger.warn({ keyId }, "key revocation announcement not acknowledged by NATS in time");
    } catch (err) {
      this.options.logger.warn({ err, keyId }, "key revocation announcement failed");
    } finally {
      clearTimeout(timer);
    }
  }

  onRevoked(listener: (keyId: string) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const nc = this.nc;
    this.nc = undefined;
    if (nc && !nc.isClosed()) await nc.close();
  }
}
