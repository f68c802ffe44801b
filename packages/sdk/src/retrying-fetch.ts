import { setTimeout as sleep } from "node:timers/promises";
import { GatewayConnectionError } from "./problem-error.js";

export interface RetryOptions {
  /** Further attempts after the first; 0 turns retries off. Default 3. */
  maxRetries?: number;
  /** First backoff step; doubled per attempt, with full jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** No single wait is longer; a `Retry-After` beyond it is answered, not waited for. Default 30 s. */
  maxDelayMs?: number;
}

/** Answers that say "the same request may succeed later" and that the gateway made nothing. */
export const RETRYABLE_STATUSES = new Set([429, 502, 503]);

/**
 * Whether a request may be sent again after a dropped connection, where the gateway may have
 * acted on it: reads; a create (its merchant_reference makes a repeat answer the first session);
 * a cancel (cancelling a canceled session is a harmless 200); a refund only with an
 * Idempotency-Key (the SDK sends one by default). The same rule holds for a 502: the acquirer
 * did not answer in time, so it may have acted. A 429 or 503 is retried for every request: the
 * gateway refuses those before it acts ("nothing was taken", docs/api/errors.md).
 */
export function safeToResend(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  const path = new URL(request.url).pathname;
  if (/\/refund\/?$/.test(path)) return request.headers.has("idempotency-key");
  return /\/sessions\/?$/.test(path) || /\/cancel\/?$/.test(path);
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), or undefined when absent/unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoffMs(attempt: number, base: number, max: number): number {
  return Math.random() * Math.min(max, base * 2 ** attempt);
}

/** Called before each retry: for logs, metrics and the tests that watch retries happen. */
export type RetryListener = (event: {
  attempt: number;
  delayMs: number;
  reason: string;
  request: Request;
}) => void;

/**
 * A fetch that sends a request again on 429, 502, 503 and network errors, waiting `Retry-After` when
 * the gateway says how long and an exponential backoff with full jitter otherwise.
 */
export function retryingFetch(
  options: RetryOptions = {},
  baseFetch: (input: Request) => Promise<Response> = (r) => fetch(r),
  onRetry?: RetryListener,
): (input: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // The body of a Request is read once: each attempt sends a copy, the original stays unread.
      const copy = request.clone();
      let response: Response;
      try {
        response = await baseFetch(copy);
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (attempt >= maxRetries || !safeToResend(request))
          throw new GatewayConnectionError(`${request.method} ${request.url}: ${(error as Error).message}`, {
            cause: error,
          });
        const delayMs = backoffMs(attempt, base, max);
        onRetry?.({ attempt: attempt + 1, delayMs, reason: (error as Error).message, request });
        await sleep(delayMs);
        continue;
      }
      if (!RETRYABLE_STATUSES.has(response.status) || attempt >= maxRetries) return response;
      if (response.status === 502 && !safeToResend(request)) return response;
      const told = retryAfterMs(response.headers.get("retry-after"));
      if (told !== undefined && told > max) return response;
      const delayMs = told ?? backoffMs(attempt, base, max);
      // Free the connection of the answer we drop.
      await response.body?.cancel().catch(() => {});
      onRetry?.({ attempt: attempt + 1, delayMs, reason: `HTTP ${response.status}`, request });
      await sleep(delayMs);
    }
  };
}
