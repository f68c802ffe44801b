import { createPollingLoop, IDLE_BACKOFF_INTERVALS, randomBase62 } from "@gateway/platform";
import { sweepDueAt } from "../domain/sweep-schedule.js";
import type { PaymentDeps } from "./payment-deps.js";
import type { SweepLocks, SweepObserver } from "./ports.js";
import { sweepSession } from "./sweep-session.js";

export const DEFAULT_SWEEP_INTERVAL_MS = 1_000;
export const DEFAULT_SWEEP_LEASE_MS = 120_000;
const DEFAULT_BATCH_SIZE = 100;
/** Sessions swept at once: each may wait on the acquirer. */
const CONCURRENCY = 8;
/**
 * How often a look covers all due work by dates (on its first look too, and when the clock goes
 * back): whatever fell due before the catch-up's span. Once a minute a catch-up look covers the
 * last hour minute by minute (failed sweeps, claims of dead replicas); the looks in between cover
 * what fell due since shortly before the previous look
 * (docs/decisions.md#the-sweeper-looks-at-the-minutes-that-just-fell-due).
 */
const FULL_LOOK_EVERY_MS = 3_600_000;
const CATCH_UP_EVERY_MS = 60_000;
/** As long as the time between full looks, so together they leave no due work out. */
const CATCH_UP_SPAN_MS = FULL_LOOK_EVERY_MS;
const LOOK_OVERLAP_MS = 60_000;

export interface SessionSweeperOptions {
  deps: PaymentDeps;
  locks: SweepLocks;
  /** Pause between looks for due sessions; default 1 s. */
  intervalMs?: number;
  /**
   * How long one session's claim lasts: longer than a sweep can take (a few acquirer calls).
   * After a crash, the session waits this long before another replica takes it over.
   */
  leaseMs?: number;
  batchSize?: number;
  observer?: SweepObserver;
}

export interface SessionSweeper {
  start(): void;
  stop(): Promise<void>;
  /** One look: sweeps what is due now; resolves with how many sessions this replica swept. */
  runOnce(): Promise<number>;
}

/**
 * Finds sessions with due work (expiry, link expiry, reconciliation) and sweeps each under an
 * exclusive, expiring claim, so any number of replicas can run it: one sweeps a session at a
 * time, and a replica that dies mid-sweep leaves its claim to run out for another to finish.
 */
export function createSessionSweeper(o: SessionSweeperOptions): SessionSweeper {
  const { deps, locks } = o;
  const holder = `sweeper-${randomBase62(16)}`;
  const leaseMs = o.leaseMs ?? DEFAULT_SWEEP_LEASE_MS;
  const batchSize = o.batchSize ?? DEFAULT_BATCH_SIZE;
  let lastFullLook: number | undefined;
  /** Set with every full look, so it is a number whenever a catch-up is considered. */
  let lastCatchUp = 0;
  let lastLook: number | undefined;

  /** Since when this look covers work falling due; undefined: all due work. */
  function dueSince(now: Date): Date | undefined {
    const at = now.getTime();
    const previous = lastLook;
    lastLook = at;
    if (lastFullLook === undefined || at - lastFullLook >= FULL_LOOK_EVERY_MS || at < lastFullLook) {
      lastFullLook = at;
      lastCatchUp = at;
      return undefined;
    }
    if (at - lastCatchUp >= CATCH_UP_EVERY_MS || at < lastCatchUp) {
      lastCatchUp = at;
      return new Date(at - CATCH_UP_SPAN_MS);
    }
    return new Date(Math.min(previous ?? at, at) - LOOK_OVERLAP_MS);
  }

  async function sweepClaimed(
    sessionId: string,
    scope: { merchantId: string; livemode: boolean },
  ): Promise<boolean> {
    const key = `sweep|${sessionId}`;
    const now = deps.clock.now();
    if (!(await locks.acquire(key, holder, new Date(now.getTime() + leaseMs), now))) return false;
    try {
      // Read again under the claim: another replica may have swept it since the look.
      const session = await deps.repo.findById(scope, sessionId);
      if (!session || (sweepDueAt(session) ?? Infinity) > deps.clock.now().getTime()) return false;
      await sweepSession(deps, session, o.observer);
      o.observer?.sessionSwept("swept");
      return true;
    } finally {
      await locks
        .release(key, holder)
        .catch((err: unknown) =>
          deps.logger.warn({ err, sessionId }, "could not release a sweep claim; it runs out on its own"),
        );
    }
  }

  async function pass(): Promise<{ swept: number; more: boolean; idle: boolean }> {
    const now = deps.clock.now();
    const due = await deps.repo.findDue(now, batchSize, dueSince(now));
    let swept = 0;
    let failed = false;
    const queue = [...due];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          if (await sweepClaimed(next.id, next.scope)) swept++;
        } catch (err) {
          failed = true;
          o.observer?.sessionSwept("failed");
          deps.logger.warn({ err, sessionId: next.id }, "could not sweep a session; will try again");
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
    return { swept, more: due.length >= batchSize && swept > 0 && !failed, idle: due.length === 0 };
  }

  const intervalMs = o.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  const loop = createPollingLoop({
    pass,
    intervalMs,
    // Nothing due: look less often, up to a few intervals (an expiry is then that much late at most).
    maxIdleIntervalMs: intervalMs * IDLE_BACKOFF_INTERVALS,
    logger: deps.logger,
    failureMessage: "could not look for due sessions, will retry",
  });
  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    async runOnce() {
      return (await pass()).swept;
    },
  };
}
