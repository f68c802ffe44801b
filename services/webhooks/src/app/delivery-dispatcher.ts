import { randomUUID } from "node:crypto";
import { IDLE_BACKOFF_INTERVALS, type Logger } from "@gateway/platform";
import type { Delivery, DeliveryClaim } from "../domain/delivery.js";
import type { QueuedAttempt, SendReservation } from "./record-event.js";
import {
  type AttemptReport,
  type KnownContext,
  type SendAttemptDeps,
  sendClaimedAttempt,
} from "./send-attempt.js";
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

/** Attempts handed over on their event and not yet started; beyond this they wait for a look. */
const MAX_READY = 1_000;

/**
 * Sends due attempts, up to `concurrency` at once and `endpointConcurrency` at once per URL.
 * An event's first attempt is handed over as soon as it is stored (`sendNow`) and claimed by its
 * id, so delivery needs no look over the queue (docs/decisions.md#webhooks-go-out-on-the-event).
 * Everything else (retries coming due, other replicas' work, expired leases, resends) is found by
 * a look over the store, `claimNextDue`, made when woken and at least every `pollIntervalMs`.
 * Every attempt is claimed under a lease, so any number of dispatchers, in this process or
 * others, share the work without sending an attempt twice while its lease lasts.
 */
export class DeliveryDispatcher {
  private started = false;
  private stopping = false;
  private abandoned = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private wakePending = false;
  /** Looks in a row that claimed nothing. */
  private emptyLooks = 0;
  /** A look over the store is due (poll, wake(), a retry of ours, a look cut short by full slots). */
  private lookPending = true;
  private wakeSleeper: (() => void) | undefined;
  private lastClaimErrorLog = 0;
  /**
   * Attempts to start as slots free, oldest first: first attempts stored leased to us (`leased`,
   * sent without a claim), first attempts handed over on their event, and what a look found due
   * beyond its free slots (`fromLook`); the last two are claimed by id.
   */
  private readonly ready: Array<QueuedAttempt & { fromLook?: true; leased?: true }> = [];
  /** Attempts from a look still in `ready`; the next look waits until they are gone. */
  private lookSurplus = 0;
  /** Attempts in flight per URL. */
  private readonly perUrl = new Map<string, number>();
  /**
   * Attempts a look claimed for a URL that had no room left in that batch; they start as soon as
   * it has (within one send's time, well inside their lease), before anything else is claimed.
   */
  private readonly waiting: Array<Delivery & { claim: DeliveryClaim }> = [];

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.loopDone = this.loop();
  }

  /** Look for due work now rather than at the next poll. */
  wake(): void {
    this.lookPending = true;
    this.emptyLooks = 0;
    this.nudge();
  }

  /**
   * Sends this just-queued attempt as soon as a slot (and its URL's share) is free, claiming it
   * by id. When too many are waiting it is left to the next look, which finds it in the store.
   */
  sendNow(queued: QueuedAttempt): void {
    if (this.stopping) return;
    if (this.ready.length >= MAX_READY) {
      this.lookPending = true;
      return;
    }
    this.ready.push(queued);
    this.nudge();
  }

  /**
   * A lease for a first attempt about to be stored, so it is stored leased to this process and
   * needs no claim at all (docs/decisions.md#webhooks-go-out-on-the-event). With a slot free for
   * `url` and nothing handed over earlier waiting, the slot is held for it; otherwise it joins
   * the ready queue with its lease, and starts in turn while the lease has a send's time left.
   * None when stopping or when the ready queue is full: it is then stored free, for a look.
   */
  reserve(url: string): SendReservation | undefined {
    if (this.stopping) return undefined;
    const now = this.deps.clock.now();
    const claim = { token: randomUUID(), until: new Date(now.getTime() + leaseMsOf(this.deps.settings)) };
    const slotFree =
      this.hasSlot() && this.urlHasRoom(url) && this.ready.length === 0 && this.waiting.length === 0;
    if (slotFree) return this.holdSlot(url, claim);
    if (this.ready.length >= MAX_READY) return undefined;
    return {
      claim,
      send: (attempt, known) => {
        this.ready.push({ attempt, leased: true, ...(known ? { known } : {}) });
        this.nudge();
      },
      cancel: () => {},
    };
  }

  /** Holds a slot for an attempt about to be stored under `claim`, until it is sent or cancelled. */
  private holdSlot(url: string, claim: DeliveryClaim): SendReservation {
    let decide!: (send: (() => Promise<void>) | undefined) => void;
    const decided = new Promise<(() => Promise<void>) | undefined>((resolve) => {
      decide = resolve;
    });
    this.run(url, async () => {
      const send = await decided;
      if (send) await send();
    });
    return {
      claim,
      send: (attempt, known) => decide(() => this.process(attempt, known)),
      cancel: () => decide(undefined),
    };
  }

  /** Run the loop again without a look over the store (new ready work, a freed slot). */
  private nudge(): void {
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
      const [claimed] = await this.claim(1, (now, until, tokens) =>
        this.deps.stores.deliveries.claimDue(now, until, tokens),
      );
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
    // Queued attempts stored leased to us go back at once, not when their lease runs out.
    await Promise.all(
      this.ready.splice(0).flatMap(({ attempt, leased }) => (leased ? [this.giveBack(attempt)] : [])),
    );
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

  private hasSlot(): boolean {
    return !this.stopping && this.inFlight.size < this.deps.settings.concurrency;
  }

  /** URLs with every send they may have in flight: a look leaves their attempts for later. */
  private fullUrls(): string[] {
    return [...this.perUrl.keys()].filter((url) => !this.urlHasRoom(url));
  }

  private urlHasRoom(url: string): boolean {
    const { endpointConcurrency, concurrency } = this.deps.settings;
    return (this.perUrl.get(url) ?? 0) < (endpointConcurrency ?? concurrency);
  }

  private async fill(): Promise<void> {
    this.startWaiting();
    this.fillFromReady();
    if (!this.lookPending) return;
    this.lookPending = false;
    while (this.hasSlot() && this.waiting.length === 0) {
      const free = this.deps.settings.concurrency - this.inFlight.size;
      const full = this.fullUrls();
      const claimed = await this.claim(free, (now, until, tokens) =>
        this.deps.stores.deliveries.claimDue(now, until, tokens, full),
      );
      this.emptyLooks = claimed.length === 0 ? this.emptyLooks + 1 : 0;
      for (const attempt of claimed) {
        if (this.urlHasRoom(attempt.url)) this.startClaimed(attempt);
        else this.waiting.push(attempt);
      }
      if (claimed.length < free) return;
    }
    // Slots ran out before the look did: hand the rest of what is due to the ready queue, or else
    // look again once a slot frees.
    if (!(await this.queueLookSurplus())) this.lookPending = true;
  }

  /**
   * Reads what is due beyond the free slots, up to the ready queue's room, and queues it to be
   * claimed by id as slots free: one look per batch of a backlog (a bulk resend, retries falling
   * due together) instead of one per free slot, each of which reads the backlog again
   * (docs/decisions.md#webhooks-go-out-on-the-event). True when some was queued; the next look
   * comes once it is all started.
   */
  private async queueLookSurplus(): Promise<boolean> {
    const room = MAX_READY - this.ready.length;
    if (room <= 0 || this.stopping) return false;
    let due: Delivery[];
    try {
      // Full URLs too: the look just filled them, and a ready attempt waits for its URL's room.
      due = await this.deps.stores.deliveries.findDue(this.deps.clock.now(), room);
    } catch {
      return false; // The store is unreachable: the next look says so.
    }
    const queued = new Set(this.ready.map(({ attempt }) => attempt.id));
    for (const attempt of due) {
      if (queued.has(attempt.id)) continue;
      this.ready.push({ attempt, fromLook: true });
      this.lookSurplus++;
    }
    return this.lookSurplus > 0;
  }

  /** Starts claimed attempts that waited for their URL's share, once it has room again. */
  private startWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.hasSlot(); ) {
      const attempt = this.waiting[i]!;
      if (!this.urlHasRoom(attempt.url)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.startClaimed(attempt);
    }
  }

  /**
   * Starts ready attempts whose URL has room, oldest first; the others keep their place. Each
   * takes its slot at once and is claimed inside it, so claims run side by side.
   */
  private fillFromReady(): void {
    for (let i = 0; i < this.ready.length && this.hasSlot(); ) {
      const { attempt, known } = this.ready[i]!;
      if (!this.urlHasRoom(attempt.url)) {
        i++;
        continue;
      }
      const [{ fromLook, leased }] = this.ready.splice(i, 1) as [(typeof this.ready)[number]];
      if (fromLook && --this.lookSurplus === 0) this.lookPending = true;
      // Only our own reservations: an attempt a look found may carry a dead replica's lease.
      if (leased && attempt.claim) {
        this.startLeased({ ...attempt, claim: attempt.claim }, known);
        continue;
      }
      this.run(attempt.url, async () => {
        const [claimed] = await this.claim(1, async (now, until, [token]) => {
          const taken = await this.deps.stores.deliveries.claimIfDue(attempt.id, now, until, token!);
          return taken ? [taken] : [];
        });
        if (claimed) await this.process(claimed, known);
      });
    }
  }

  /**
   * Starts a queued attempt stored leased to us if it waited at most half its lease's margin over
   * a send (15 s by default), so the send and its record still fit well inside the lease; else
   * gives the lease back, and a look claims the attempt afresh.
   */
  private startLeased(attempt: Delivery & { claim: DeliveryClaim }, known?: KnownContext): void {
    const { timeoutMs } = this.deps.settings;
    const left = attempt.claim.until.getTime() - this.deps.clock.now().getTime();
    if (left >= timeoutMs + (leaseMsOf(this.deps.settings) - timeoutMs) / 2) {
      this.run(attempt.url, () => this.process(attempt, known));
      return;
    }
    this.lookPending = true;
    void this.giveBack(attempt).finally(() => this.nudge());
  }

  /** Gives back the lease we hold on a queued attempt we will not start. */
  private async giveBack(attempt: Delivery): Promise<void> {
    if (!attempt.claim) return;
    try {
      await this.deps.stores.deliveries.release(attempt.id, attempt.claim.token, this.deps.clock.now());
    } catch {
      // Unreachable store: the lease runs out by itself and a look claims the attempt then.
    }
  }

  private startClaimed(claimed: Delivery & { claim: DeliveryClaim }): void {
    this.run(claimed.url, () => this.process(claimed));
  }

  /** Runs `send` in a slot counted against `url`; a freed slot runs the loop again. */
  private run(url: string, send: () => Promise<void>): void {
    this.perUrl.set(url, (this.perUrl.get(url) ?? 0) + 1);
    const running: Promise<void> = send().finally(() => {
      this.inFlight.delete(running);
      const left = (this.perUrl.get(url) ?? 1) - 1;
      if (left > 0) this.perUrl.set(url, left);
      else this.perUrl.delete(url);
      this.nudge();
    });
    this.inFlight.add(running);
  }

  /** Claims with `count` fresh lease tokens through `take`; none when the store cannot be reached. */
  private async claim(
    count: number,
    take: (now: Date, until: Date, tokens: string[]) => Promise<Delivery[]>,
  ): Promise<Array<Delivery & { claim: DeliveryClaim }>> {
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + leaseMsOf(this.deps.settings));
    const tokens = Array.from({ length: count }, () => randomUUID());
    try {
      const claimed = await take(now, until, tokens);
      return claimed.flatMap((d) => (d.claim ? [{ ...d, claim: d.claim }] : []));
    } catch (err) {
      // The store is unreachable: try again at the next poll; say so now and then, not every poll.
      if (Date.now() - this.lastClaimErrorLog >= CLAIM_ERROR_LOG_INTERVAL_MS) {
        this.lastClaimErrorLog = Date.now();
        this.deps.logger.warn({ err }, "cannot claim due webhook deliveries; retrying");
      }
      return [];
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
      // Looks that found nothing space the polls out, up to a few intervals
      // (docs/decisions.md#idle-looks-back-off); work found or a wake() brings them back.
      const polls = Math.min(2 ** Math.min(this.emptyLooks, 8), IDLE_BACKOFF_INTERVALS);
      const timer = setTimeout(() => {
        this.lookPending = true;
        done();
      }, this.deps.settings.pollIntervalMs * polls);
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

  private async process(attempt: Delivery & { claim: DeliveryClaim }, known?: KnownContext): Promise<void> {
    let report: AttemptReport;
    try {
      report = await sendClaimedAttempt(this.deps, attempt, () => this.abandoned, known);
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
