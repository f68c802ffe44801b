import { parse } from "../config/read-config.js";
import type { Logger } from "../logger.js";

export interface ShutdownStep {
  name: string;
  /** Gets the time left before the deadline, so a drain can cut its own grace to fit. */
  run: (remainingMs: number) => Promise<void>;
  /**
   * Called when the deadline passes while this step runs or before it ran: drop what cannot
   * finish (force-close a database client, close a NATS connection without draining).
   */
  abandon?: () => void | Promise<void>;
}

/** Default drain deadline: fits the Helm chart's 30 s grace period minus its 5 s preStop sleep, with a margin. */
export const DEFAULT_SHUTDOWN_TIMEOUT = "20s";

/** Every process reads its drain deadline from the same variable. */
export const shutdownConfigSpec = {
  shutdownTimeoutMs: {
    env: "GATEWAY_SHUTDOWN_TIMEOUT",
    description:
      "On SIGTERM, how long in-flight work may drain; past it, MongoDB and NATS calls are abandoned and the process exits 1 (must be below the pod's terminationGracePeriodSeconds minus its preStop sleep)",
    default: DEFAULT_SHUTDOWN_TIMEOUT,
    parse: parse.duration,
  },
} as const;

export interface GracefulShutdownOptions {
  /** The whole shutdown's deadline, from the first signal; 20 s by default. */
  timeoutMs?: number;
  /** How long abandon hooks get once the deadline passed. */
  abandonGraceMs?: number;
}

export interface GracefulShutdown {
  /** Starts the shutdown as a signal would (the launcher's pipe closed…); idempotent. */
  begin(reason: string): void;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_ABANDON_GRACE_MS = 1_000;

/**
 * On SIGTERM or SIGINT, runs the steps (a list, or a function giving it when the shutdown
 * begins) in order (stop taking traffic first, then close
 * clients) under one deadline for the whole shutdown, so no state of a dependency can hold the
 * process. A failed step is logged and the next one still runs; when every step finished in
 * time the process exits 0. When the deadline passes, the steps still running or not yet run
 * are abandoned (their `abandon` hooks drop connections), logged by name, and the process
 * exits 1: an orchestrator sees that work was cut short. A second signal exits at once with 1
 * (an operator pressing Ctrl-C twice means it).
 */
export function installGracefulShutdown(
  logger: Logger,
  steps: ShutdownStep[] | (() => ShutdownStep[]),
  options: GracefulShutdownOptions = {},
): GracefulShutdown {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const abandonGraceMs = options.abandonGraceMs ?? DEFAULT_ABANDON_GRACE_MS;
  let shuttingDown = false;

  const begin = (reason: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const deadline = Date.now() + timeoutMs;
    // A snapshot: steps added from now on (a start-up still under way) are not waited for.
    const plan = typeof steps === "function" ? steps() : [...steps];
    const unfinished = new Set(plan);
    // Armed before anything else can fail: whatever happens next, the process ends by the deadline.
    const abandonTimer = setTimeout(
      () => void abandonRest(logger, [...unfinished], abandonGraceMs, reason),
      timeoutMs,
    );
    safeLog(() => logger.info({ reason, timeoutMs }, "shutting down"));
    void (async () => {
      for (const step of plan) {
        const started = Date.now();
        try {
          await step.run(Math.max(0, deadline - Date.now()));
          safeLog(() => logger.info({ step: step.name, ms: Date.now() - started }, "shutdown step done"));
        } catch (err) {
          safeLog(() => logger.error({ err, step: step.name }, "shutdown step failed"));
        }
        unfinished.delete(step);
      }
      clearTimeout(abandonTimer);
      safeLog(() => logger.info("shutdown complete"));
      // pino writes synchronously to stdout by default, so the last lines are out before exit.
      process.exit(0);
    })();
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      safeLog(() => logger.warn({ signal }, "second signal during shutdown, exiting now"));
      process.exit(1);
    }
    begin(signal);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return { begin };
}

/** The deadline passed: say what is cut short, drop connections (bounded), exit 1. */
async function abandonRest(
  logger: Logger,
  unfinished: ShutdownStep[],
  graceMs: number,
  reason: string,
): Promise<void> {
  const hardStop = setTimeout(() => process.exit(1), graceMs);
  safeLog(() =>
    logger.error(
      { reason, abandoned: unfinished.map((s) => s.name) },
      "shutdown deadline passed, abandoning unfinished work",
    ),
  );
  try {
    await Promise.allSettled(unfinished.map(async (step) => step.abandon?.()));
  } finally {
    clearTimeout(hardStop);
    process.exit(1);
  }
}

/**
 * Logging must never stop a shutdown: when the launcher died, stdout is a closed pipe and a
 * synchronous write throws EPIPE.
 */
function safeLog(write: () => void): void {
  try {
    write();
  } catch {
    // Nobody is left to read it.
  }
}
