import { randomUUID } from "node:crypto";
import type { Logger } from "@gateway/platform";
import type { Delivery, DeliveryClaim } from "../domain/delivery.js";
import { type AttemptReport, type SendAttemptDeps, sendClaimedAttempt } from "./send-attempt.js";
import { leaseMsOf, type WebhooksSettings } from "./webhooks-settings.js";

export interface DispatcherDeps extends SendAttemptDeps {
  settings: WebhooksSettings;
  logger: Logger;
  /** Called with every attempt's report (metrics). */
  onReport?: (report: AttemptReport) => void;
}

export interface StopOptions {
  /** How long to wait for attempts already being sent; after it they are abandoned (their leases expire). */
  graceMs?: number;
}

const CLAIM_ERROR_LOG_INTERVAL_MS = 30_000;

/**
 * Sends due attempts: claims them one by one from the store (a lease per attempt, so any number
 * of dispatchers, in this process or others, share the queue), up to `concurrency` at once. It
 * looks again when woken (a new event, a resend, a freed slot, a retry of its own coming due) and
 * at least every `pollIntervalMs` (work queued by other replicas, expired leases).
 */
export class DeliveryDispatcher {
  private started = false;
  private stopping = false;
  private abandoned = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private wakePending = false;
  private wakeSleeper: (() => void) | undefined;
  private lastClaimErrorLog = 0;

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.loopDone = this.loop();
  }

  /** Look for due work now rather than at the next poll. */
  wake(): void {
    this.wakePending = true;
    this.wakeSleeper?.();
  }

  /** Attempts being sent right now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Claims and sends everything due now, and resolves when those attempts are recorded. For
   * tests that drive time with a manual clock, and for one-off runs; the loop does the same.
   */
  async dispatchDue(): Promise<number> {
    const running: Promise<void>[] = [];
    for (;;) {
      const claimed = await this.claim();
      if (!claimed) break;
      running.push(this.process(claimed));
    }
    await Promise.all(running);
    return running.length;
  }

  /**
   * Stops claiming, then waits up to `graceMs` for attempts in flight. Those still running are
   * abandoned: their outcome is not written, their lease expires and another dispatcher sends
   * them again (at-least-once).
   */
  async stop(options: StopOptions = {}): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loopDone;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.inFlight.size === 0) return;
    const graceMs = options.graceMs ?? Number.POSITIVE_INFINITY;
    let timer: NodeJS.Timeout | undefined;
    const finished = Promise.all(this.inFlight).then(() => true);
    const timedOut = Number.isFinite(graceMs)
      ? new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))
      : new Promise<false>(() => {});
    const allDone = await Promise.race([finished, timedOut]);
    clearTimeout(timer);
    if (!allDone) {
      this.abandoned = true;
      this.deps.logger.warn(
        { abandoned: this.inFlight.size },
        "stopped before some webhook attempts finished; they are sent again once their lease expires",
      );
    }
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      await this.fill();
      await this.sleep();
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopping && this.inFlight.size < this.deps.settings.concurrency) {
      const claimed = await this.claim();
      if (!claimed) return;
      const running: Promise<void> = this.process(claimed).finally(() => {
        this.inFlight.delete(running);
        this.wake();
      });
      this.inFlight.add(running);
    }
  }

  private async claim(): Promise<(Delivery & { claim: DeliveryClaim }) | undefined> {
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + leaseMsOf(this.deps.settings));
    const token = randomUUID();
    try {
      const claimed = await this.deps.stores.deliveries.claimNextDue(now, until, token);
      return claimed ? { ...claimed, claim: { token, until } } : undefined;
    } catch (err) {
      // The store is unreachable: try again at the next poll; say so now and then, not every poll.
      if (Date.now() - this.lastClaimErrorLog >= CLAIM_ERROR_LOG_INTERVAL_MS) {
        this.lastClaimErrorLog = Date.now();
        this.deps.logger.warn({ err }, "cannot claim due webhook deliveries; retrying");
      }
      return undefined;
    }
  }

  private sleep(): Promise<void> {
    if (this.wakePending || this.stopping) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        this.wakePending = false;
        resolve();
      };
      const timer = setTimeout(done, this.deps.settings.pollIntervalMs);
      this.wakeSleeper = done;
    });
  }

  /** Wakes the loop when a retry of ours comes due, so short schedules do not wait for a poll. */
  private wakeAt(at: Date): void {
    if (this.stopping) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.wake();
      },
      Math.max(0, at.getTime() - this.deps.clock.now().getTime()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  private async process(attempt: Delivery & { claim: DeliveryClaim }): Promise<void> {
    let report: AttemptReport;
    try {
      report = await sendClaimedAttempt(this.deps, attempt, () => this.abandoned);
    } catch (err) {
      this.deps.logger.error(
        { err, deliveryId: attempt.id, eventId: attempt.eventId },
        "webhook attempt could not be completed; it is sent again when its lease expires",
      );
      return;
    }
    this.log(report);
    this.deps.onReport?.(report);
    if (report.outcome === "failed" && report.retryAt) this.wakeAt(report.retryAt);
  }

  private log(report: AttemptReport): void {
    const { logger } = this.deps;
    const about = {
      deliveryId: report.deliveryId,
      eventId: report.eventId,
      event: report.event,
      attempt: report.attemptNumber,
    };
    switch (report.outcome) {
      case "succeeded":
        logger.debug(
          { ...about, httpStatus: report.httpStatus, ms: report.responseTimeMs },
          "webhook delivered",
        );
        return;
      case "failed":
        logger.info(
          {
            ...about,
            httpStatus: report.httpStatus,
            error: report.errorMessage,
            detail: report.errorDetail,
            cause: report.failureCause,
            retryAt: report.retryAt?.toISOString(),
            endpointDisabled: report.endpointDisabled,
          },
          report.retryAt
            ? "webhook delivery failed; retry scheduled"
            : "webhook delivery failed; no retry left",
        );
        return;
      case "not_sent":
        logger.info({ ...about, error: report.errorMessage }, "webhook not sent");
        return;
      case "lease_lost":
        logger.warn(about, "webhook attempt outlived its lease; another dispatcher took it over");
        return;
      case "abandoned":
        return;
    }
  }
}
