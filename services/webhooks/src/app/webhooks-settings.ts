/** The delivery settings (configuration, defaults in docs/api/limits.md). */
export interface WebhooksSettings {
  /** Per-attempt timeout (default 10 s: docs/api/webhooks.md#delivery-and-retries). */
  timeoutMs: number;
  /** Wait before each retry after a failure (default 1 min, 2 h, 24 h: docs/api/webhooks.md#delivery-and-retries). */
  retryScheduleMs: number[];
  /** How long a rotated-out secret keeps signing (default 24 h). */
  secretOverlapMs: number;
  /** How often an idle dispatcher looks for due attempts (other replicas' retries, restarts). */
  pollIntervalMs: number;
  /** Attempts sent at once by one dispatcher. */
  concurrency: number;
  /**
   * Attempts sent at once by one dispatcher to one URL, so one slow receiver cannot take every
   * slot; default `concurrency` (no limit of its own).
   */
  endpointConcurrency?: number;
  /** How long a claimed attempt stays ours; default timeoutMs + 30 s. Must outlast a send. */
  leaseMs?: number;
}

export const LEASE_MARGIN_MS = 30_000;

export function leaseMsOf(settings: WebhooksSettings): number {
  return settings.leaseMs ?? settings.timeoutMs + LEASE_MARGIN_MS;
}
