/**
 * Revocations of API keys, told to every edge replica so each drops the key from its auth
 * cache at once instead of after the cache TTL. The edge that revokes (through the admin API)
 * announces; every edge, the announcer included, listens.
 */
export interface KeyRevocations {
  /** Tells every edge replica; resolves once the announcement has left this process (or could not). */
  announce(keyId: string): Promise<void>;
  /** `listener` is called with every revoked key id announced by any replica. */
  onRevoked(listener: (keyId: string) => void): void;
  close(): Promise<void>;
}

/** One process is one edge (embedded mode, tests): an announcement goes straight to the listeners. */
export class InProcessKeyRevocations implements KeyRevocations {
  private readonly listeners: Array<(keyId: string) => void> = [];

  async announce(keyId: string): Promise<void> {
    for (const listener of this.listeners) listener(keyId);
  }

  onRevoked(listener: (keyId: string) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
  }
}
