import type { Logger } from "./logger.js";

export interface PollingLoopOptions {
  /** One look at the work; `more: true` asks for the next look at once (a full batch went out cleanly). */
  pass: () => Promise<{ more: boolean }>;
  /** Pause between looks when there is nothing more to do. */
  intervalMs: number;
  logger: Logger;
  /** Logged when a look throws; the loop goes on after the pause. */
  failureMessage: string;
}

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

  async function run(): Promise<void> {
    while (!stopping) {
      let more = false;
      try {
        ({ more } = await o.pass());
      } catch (err) {
        o.logger.warn({ err }, o.failureMessage);
      }
      if (!more) await sleep(o.intervalMs);
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
      wakeSleeper?.();
    },
  };
}
