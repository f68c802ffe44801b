import type { Clock } from "./clock.js";
import type { Logger } from "./logger.js";

/** An in-memory store that can drop records older than a cutoff (and no longer needed). */
export interface ForgettingStore {
  name: string;
  /** Returns how many records it dropped. */
  forgetOlderThan(cutoff: Date): number;
}

export interface MemoryRetention {
  /** One pass now; returns how many records were dropped in all. */
  runOnce(): number;
  stop(): void;
}

/**
 * Keeps in-memory stores bounded (embedded mode): every `intervalMs`, records older than
 * `retentionMs` leave memory, and one log line says how many left each store.
 */
export function startMemoryRetention(o: {
  stores: ForgettingStore[];
  retentionMs: number;
  intervalMs: number;
  clock: Clock;
  logger: Logger;
}): MemoryRetention {
  const runOnce = () => {
    const cutoff = new Date(o.clock.now().getTime() - o.retentionMs);
    const dropped: Record<string, number> = {};
    let total = 0;
    for (const store of o.stores) {
      const n = store.forgetOlderThan(cutoff);
      if (n > 0) dropped[store.name] = n;
      total += n;
    }
    if (total > 0)
      o.logger.info(
        { retentionMs: o.retentionMs, olderThan: cutoff.toISOString(), dropped },
        "in-memory data older than the retention window dropped",
      );
    return total;
  };
  const timer = setInterval(runOnce, o.intervalMs);
  // Bounded memory is housekeeping: it never keeps the process alive.
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
