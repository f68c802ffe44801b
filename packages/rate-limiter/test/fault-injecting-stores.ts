import type { GcraStore } from "../src/index.js";

/** Wraps a store; while `broken`, every call fails as an unreachable server would. Counts calls. */
export class SwitchableStore implements GcraStore {
  broken = false;
  calls = 0;

  constructor(private readonly inner: GcraStore) {}

  async get(key: string): Promise<{ tat: number; revision: number } | undefined> {
    this.calls++;
    if (this.broken) throw new Error("connect ECONNREFUSED 127.0.0.1:4222");
    return this.inner.get(key);
  }

  async compareAndSet(
    key: string,
    tat: number,
    revision: number | undefined,
    ttlMs: number,
  ): Promise<boolean> {
    this.calls++;
    if (this.broken) throw new Error("connect ECONNREFUSED 127.0.0.1:4222");
    return this.inner.compareAndSet(key, tat, revision, ttlMs);
  }
}

/** A store that never answers (a server that accepted the connection and hangs). */
export class HangingStore implements GcraStore {
  calls = 0;

  get(): Promise<undefined> {
    this.calls++;
    return new Promise(() => undefined);
  }

  compareAndSet(): Promise<boolean> {
    this.calls++;
    return new Promise(() => undefined);
  }
}

/**
 * Simulates another replica writing between our read and our compare-and-set: before the chosen
 * write to `key` reaches the store, `interfere` runs against the real store.
 */
export class InterferingStore implements GcraStore {
  private interferencesLeft: number;
  casCalls = 0;

  constructor(
    private readonly inner: GcraStore,
    private readonly key: string,
    private readonly interfere: (store: GcraStore) => Promise<void>,
    times = 1,
  ) {
    this.interferencesLeft = times;
  }

  get(key: string): Promise<{ tat: number; revision: number } | undefined> {
    return this.inner.get(key);
  }

  async compareAndSet(
    key: string,
    tat: number,
    revision: number | undefined,
    ttlMs: number,
  ): Promise<boolean> {
    this.casCalls++;
    if (key === this.key && this.interferencesLeft > 0) {
      this.interferencesLeft--;
      await this.interfere(this.inner);
    }
    return this.inner.compareAndSet(key, tat, revision, ttlMs);
  }
}
