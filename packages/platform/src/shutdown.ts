import type { Logger } from "./logger.js";

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

const STEP_TIMEOUT_MS = 15_000;

function withTimeout(promise: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`shutdown step '${name}' took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * On SIGTERM or SIGINT, runs the steps in order (stop taking traffic first, then close
 * clients), each bounded so one stuck dependency cannot hold the process forever, then exits
 * 0. A failed step is logged and the next one still runs. A second signal exits at once
 * with 1 (an operator pressing Ctrl-C twice means it).
 */
export function installGracefulShutdown(logger: Logger, steps: ShutdownStep[]): void {
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.warn({ signal }, "second signal during shutdown, exiting now");
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, "shutting down");
    void (async () => {
      for (const step of steps) {
        const started = Date.now();
        try {
          await withTimeout(Promise.resolve().then(step.run), STEP_TIMEOUT_MS, step.name);
          logger.info({ step: step.name, ms: Date.now() - started }, "shutdown step done");
        } catch (err) {
          logger.error({ err, step: step.name }, "shutdown step failed");
        }
      }
      logger.info("shutdown complete");
      // pino writes synchronously to stdout by default, so the last lines are out before exit.
      process.exit(0);
    })();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
