/**
 * Port: where GCRA state lives. One value per key, the TAT (theoretical arrival time, epoch ms,
 * may be fractional), with a revision for compare-and-set. Implementations: InMemoryGcraStore
 * (one process) and the NATS JetStream KV store (shared by every edge replica).
 */
export interface GcraStore {
  get(key: string): Promise<{ tat: number; revision: number } | undefined>;
  /**
   * Writes `tat` if nobody wrote since `revision` was read: creates the key when `revision` is
   * undefined (and the key is absent), replaces it when the stored revision still matches.
   * Returns false on a conflict. The key may be dropped `ttlMs` after the write (the state is
   * then equivalent to an idle budget). Any other failure (store unreachable) rejects.
   */
  compareAndSet(key: string, tat: number, revision: number | undefined, ttlMs: number): Promise<boolean>;
}

/** Keys follow NATS KV rules (`[-/_=.a-zA-Z0-9]`, no leading/trailing `.`); every adapter enforces the same. */
const VALID_KEY = /^[-/_=.A-Za-z0-9]+$/;

export function assertValidStoreKey(key: string): void {
  if (!VALID_KEY.test(key) || key.startsWith(".") || key.endsWith(".")) {
    throw new TypeError(
      `invalid GCRA store key "${key}": allowed are [-/_=.a-zA-Z0-9], not starting or ending with "."`,
    );
  }
}

export function assertValidTat(tat: number, ttlMs: number): void {
  if (!Number.isFinite(tat)) throw new TypeError(`GCRA store: TAT must be a finite number, got ${tat}`);
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new TypeError(`GCRA store: ttlMs must be a positive number, got ${ttlMs}`);
}
