import type { Clock } from "@gateway/platform";
import { assertValidStoreKey, assertValidTat, type GcraStore } from "./gcra-store.js";

interface Entry {
  tat: number;
  revision: number;
  expiresAt: number;
}

const SWEEP_EVERY_WRITES = 1024;
const wallClock: Clock = { now: () => new Date() };

/**
 * GCRA state in this process (embedded mode, unit tests). Revisions come from one counter, as
 * stream sequences do in JetStream KV; expired keys read as absent. The clock decides expiry, so
 * tests moving a ManualClock see keys expire.
 */
export class InMemoryGcraStore implements GcraStore {
  private readonly entries = new Map<string, Entry>();
  private lastRevision = 0;
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? wallClock;
  }

  async get(key: string): Promise<{ tat: number; revision: number } | undefined> {
    assertValidStoreKey(key);
    const entry = this.live(key);
    return entry === undefined ? undefined : { tat: entry.tat, revision: entry.revision };
  }

  async compareAndSet(
    key: string,
    tat: number,
    revision: number | undefined,
    ttlMs: number,
  ): Promise<boolean> {
    assertValidStoreKey(key);
    assertValidTat(tat, ttlMs);
    const current = this.live(key);
    if (revision === undefined ? current !== undefined : current?.revision !== revision) return false;
    this.entries.set(key, { tat, revision: ++this.lastRevision, expiresAt: this.now() + ttlMs });
    // Idle keys are never read again; sweep now and then so memory follows the active merchants.
    if (this.lastRevision % SWEEP_EVERY_WRITES === 0) this.sweep();
    return true;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
