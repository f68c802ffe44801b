import { randomUUID } from "node:crypto";
import type { Collection } from "mongodb";
import { GatewayError } from "./errors/gateway-error.js";
import { KeyedSerializer } from "./keyed-serializer.js";
import { isDuplicateKeyError } from "./mongo.js";

/** A held lock: one document per locked key, removed when the write is done. */
export interface WriteLockDocument {
  _id: string;
  token: string;
  /** After this the holder is presumed dead and a waiter may take the lock over. */
  until: Date;
}

export interface DocumentWriteLockOptions {
  /** How long a lock stays valid without its holder; must outlast one write. Default 15 s. */
  holdMs?: number;
  /** How long a writer waits for a held lock before answering "try again". Default 2 s. */
  waitMs?: number;
}

const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 50;

/**
 * One writer at a time per document, across processes, for stores whose conditional updates
 * are not atomic: FerretDB 1.24 runs an update as "read, apply, write the whole document back"
 * without isolation, so two replicas' compare-and-sets on one document can both pass and the
 * second write erases the first (docs/decisions.md#compare-and-set-that-holds-on-ferretdb).
 * A unique insert is the one write it does decide atomically, so the lock is a document keyed
 * by `_id` (the primary key on MongoDB, pushed down by FerretDB on both of its backends),
 * inserted before the write and deleted after it. Writers in this process queue in memory first,
 * so only writers of other processes ever meet a held lock. A holder that died leaves its lock
 * to run out after `holdMs`; the next writer then removes it.
 */
export class DocumentWriteLock {
  private readonly local = new KeyedSerializer();
  private readonly holdMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly locks: Collection<WriteLockDocument>,
    options: DocumentWriteLockOptions = {},
  ) {
    this.holdMs = options.holdMs ?? 15_000;
    this.waitMs = options.waitMs ?? 2_000;
  }

  /** Runs `write` while holding the lock of `key`; the lock is released whatever it does. */
  run<T>(key: string, write: () => Promise<T>): Promise<T> {
    return this.local.run(key, async () => {
      const token = await this.acquire(key);
      try {
        return await write();
      } finally {
        // A lock left behind (the store went away) runs out after holdMs.
        await this.locks.deleteOne({ _id: key, token }).catch(() => undefined);
      }
    });
  }

  private async acquire(key: string): Promise<string> {
    const token = randomUUID();
    const giveUpAt = Date.now() + this.waitMs;
    for (let backoff = FIRST_BACKOFF_MS; ; backoff = Math.min(MAX_BACKOFF_MS, backoff * 2)) {
      const now = Date.now();
      try {
        await this.locks.insertOne({ _id: key, token, until: new Date(now + this.holdMs) });
        return token;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const held = await this.locks.findOne({ _id: key });
      if (held && held.until.getTime() <= now) {
        await this.locks.deleteOne({ _id: key, token: held.token });
        continue;
      }
      if (Date.now() + backoff > giveUpAt)
        throw new GatewayError(
          "SERVICE_UNAVAILABLE",
          "The record is being changed by another request; try again.",
        );
      await new Promise((resolve) => setTimeout(resolve, backoff));
    }
  }
}
