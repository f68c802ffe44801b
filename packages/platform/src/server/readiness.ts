import type { Logger } from "../logger.js";

/** One dependency a service needs before it can take traffic. `check` throws when not ready. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  /** Names of the checks that threw or did not answer in time. */
  failed: string[];
}

export const READINESS_TIMEOUT_MS = 2_000;

function settleWithin(check: ReadinessCheck, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve().then(() => check.check()), timeout]).finally(() =>
    clearTimeout(timer),
  );
}

/**
 * Runs every check at once, each bounded by `timeoutMs`, so a hung dependency makes the
 * service "not ready" quickly instead of hanging the probe.
 */
export async function runReadinessChecks(
  checks: readonly ReadinessCheck[],
  logger?: Pick<Logger, "warn">,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const results = await Promise.allSettled(checks.map((c) => settleWithin(c, timeoutMs)));
  const failed: string[] = [];
  results.forEach((r, i) => {
    if (r.status === "rejected") {
      const name = checks[i]!.name;
      failed.push(name);
      logger?.warn({ check: name, err: r.reason }, "readiness check failed");
    }
  });
  return { ready: failed.length === 0, failed };
}
