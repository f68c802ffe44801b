import { setTimeout as sleep } from "node:timers/promises";

export interface WaitForOptions {
  /** 10 s by default. */
  timeoutMs?: number;
  /** Pause between attempts; 100 ms by default. */
  intervalMs?: number;
  /** What is awaited, for the timeout error: "the payment to be captured". */
  message?: string;
}

type Ready<T> = Exclude<T, false | null | undefined>;

/**
 * Calls `condition` until it returns something other than false, null or undefined, and returns
 * that. A thrown error counts as "not yet"; the last one is reported when time runs out.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Ready<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      const result = await condition();
      if (result !== false && result !== null && result !== undefined) return result as Ready<T>;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() + intervalMs > deadline) break;
    await sleep(intervalMs);
  }
  const what = options.message ?? "condition";
  const detail =
    lastError === undefined
      ? ""
      : `; last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`;
  throw new Error(`timed out after ${timeoutMs} ms (${attempts} attempts) waiting for ${what}${detail}`, {
    cause: lastError,
  });
}
