/** The delivery settings (configuration, with the spec's values as defaults). */
export interface WebhooksSettings {
  /** Per-attempt timeout (spec 6.5: 10 s). */
  timeoutMs: number;
  /** Wait before each retry after a failure (spec 6.5: 1 min, 2 h, 24 h). */
  retryScheduleMs: number[];
  /** How long a rotated-out secret keeps signing (default 24 h). */
  secretOverlapMs: number;
  /** How often an idle dispatcher looks for due attempts (other replicas' retries, restarts). */
  pollIntervalMs: number;
  /** Attempts sent at once by one dispatcher. */
  concurrency: number;
  /** How long a claimed attempt stays ours; default timeoutMs + 30 s. Must outlast a send. */
  leaseMs?: number;
}

export const LEASE_MARGIN_MS = 30_000;

export function leaseMsOf(settings: WebhooksSettings): number {
  return settings.leaseMs ?? settings.timeoutMs + LEASE_MARGIN_MS;
}
