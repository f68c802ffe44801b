import type { Clock } from "../clock.js";
import { Gauge, metricsRegistry } from "../metrics.js";

/** Per service ("sessions", "refunds"): when the oldest event of the last look was stored. */
const oldestPending = new Map<string, { clock: Clock; at: Date | undefined }>();

const pendingEvents = new Gauge({
  name: "gateway_outbox_pending_events",
  help: "Events the outbox relay found unpublished at its last look, by service (at most one batch, 100: read it as 'at least').",
  labelNames: ["service"] as const,
  registers: [metricsRegistry],
});

new Gauge({
  name: "gateway_outbox_oldest_pending_age_seconds",
  help:
    "Age of the oldest unpublished outbox event the relay last saw, by service; 0 when none. Computed at scrape, so it " +
    "keeps growing while the relay cannot read or publish (NATS or the database down), which is what to alert on.",
  labelNames: ["service"] as const,
  registers: [metricsRegistry],
  collect() {
    for (const [service, { clock, at }] of oldestPending) {
      this.set(
        { service },
        at === undefined ? 0 : Math.max(0, (clock.now().getTime() - at.getTime()) / 1000),
      );
    }
  },
});

/**
 * The `backlog` callback of a service's outbox relay: records what each look found. The age
 * gauge is measured when Prometheus scrapes, from the oldest event seen, so a relay stuck on a
 * failing read or publish shows a growing age rather than a frozen one.
 */
export function outboxBacklogReporter(
  service: string,
  clock: Clock,
): (pending: readonly { occurredAt: Date }[]) => void {
  oldestPending.set(service, { clock, at: undefined });
  return (pending) => {
    pendingEvents.set({ service }, pending.length);
    let oldest: Date | undefined;
    for (const event of pending)
      if (oldest === undefined || event.occurredAt < oldest) oldest = event.occurredAt;
    oldestPending.set(service, { clock, at: oldest });
  };
}
