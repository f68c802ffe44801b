import type { Logger } from "./logger.js";

export interface PollingLoopOptions {
  /**
   * One look at the work; `more: true` asks for the next look at once (a full batch went out
   * cleanly), `idle: true` says the look found nothing at all.
   */
  pass: () => Promise<{ more: boolean; idle?: boolean }>;
  /** Pause between looks when there is nothing more to do. */
  intervalMs: number;
  /**
   * While looks find nothing, each pause doubles up to this (default: intervalMs, no backoff);
   * a look that finds work, or wake(), brings it back to intervalMs
   * (docs/decisions.md#idle-looks-back-off).
   */
  maxIdleIntervalMs?: number;
  logger: Logger;
  /** Logged when a look throws; the loop goes on after the pause. */
  failureMessage: string;
}

/** How far idle looks of the gateway's background loops back off: up to this many intervals. */
export const IDLE_BACKOFF_INTERVALS = 5;

export interface PollingLoop {
  /** Starts looking (idempotent). */
  start(): void;
  /** Stops; resolves once the look in progress has finished. */
  stop(): Promise<void>;
  /** Ends the current pause now: new work was just stored. */
  wake(): void;
}

/**
 * A background loop of looks at stored work (an outbox, due sessions): a look, then a pause
 * that `wake()` cuts short. A failed look is logged and retried after the pause; the loop never
 * keeps the process alive on its own.
 */
export function createPollingLoop(o: PollingLoopOptions): PollingLoop {
  let loop: Promise<void> | undefined;
  let stopping = false;
  let woken = false;
  let wakeSleeper: (() => void) | undefined;

  function sleep(ms: number): Promise<void> {
    if (woken || stopping) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakeSleeper = undefined;
        woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      wakeSleeper = done;
    });
  }

  const maxIdleMs = Math.max(o.intervalMs, o.maxIdleIntervalMs ?? o.intervalMs);
  let pauseMs = o.intervalMs;
  let wokenSinceLook = false;

  async function run(): Promise<void> {
    while (!stopping) {
      let more = false;
      let idle = false;
      wokenSinceLook = false;
      try {
        ({ more, idle = false } = await o.pass());
      } catch (err) {
        o.logger.warn({ err }, o.failureMessage);
      }
      if (more) continue;
      await sleep(pauseMs);
      pauseMs = idle && !wokenSinceLook ? Math.min(pauseMs * 2, maxIdleMs) : o.intervalMs;
    }
  }

  return {
    start() {
      if (loop) return;
      stopping = false;
      loop = run();
    },
    async stop() {
      stopping = true;
      wakeSleeper?.();
      await loop;
      loop = undefined;
    },
    wake() {
      woken = true;
      wokenSinceLook = true;
      wakeSleeper?.();
    },
  };
}
