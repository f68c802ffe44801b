/**
 * Test-mode events as they happen, for a developer's `listen` (docs/api/webhooks.md#listening-on-a-laptop).
 * Best effort on purpose: the webhook delivery, with its history and retries, stays the
 * authoritative channel; a listener that is not connected at the moment simply misses the event.
 */
export interface LiveEventFeed {
  /** Offers one event's webhook body (the exact JSON text) to the merchant's listeners. */
  publish(merchantId: string, event: LiveEvent): void;
  /** Calls `listener` with each event of the merchant published from now on; returns the unsubscribe. */
  subscribe(merchantId: string, listener: (event: LiveEvent) => void): Promise<() => void>;
  close(): Promise<void>;
}

export interface LiveEvent {
  id: string;
  type: string;
  /** The webhook body, as docs/api/webhooks.md#the-event-body describes it. */
  body: string;
}

/** One process (embedded mode, tests): published events go straight to this process's listeners. */
export class InProcessLiveEventFeed implements LiveEventFeed {
  private readonly listeners = new Map<string, Set<(event: LiveEvent) => void>>();

  publish(merchantId: string, event: LiveEvent): void {
    for (const listener of this.listeners.get(merchantId) ?? []) listener(event);
  }

  async subscribe(merchantId: string, listener: (event: LiveEvent) => void): Promise<() => void> {
    const set = this.listeners.get(merchantId) ?? new Set();
    this.listeners.set(merchantId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(merchantId);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
