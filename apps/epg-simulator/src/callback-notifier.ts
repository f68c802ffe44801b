import type { Logger } from "@gateway/platform";
import type { SimulatorNotification } from "./simulator-order-book.js";

export interface CallbackNotifierOptions {
  callbackUrl: string;
  fetchImpl?: typeof fetch;
  logger?: Logger;
  /** Delays before the second and later tries. */
  retryDelaysMs?: number[];
  timeoutMs?: number;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

/**
 * Sends BPC-style callbacks: GET {callbackUrl}?mdOrder=&orderNumber=&operation=&status=.
 * A callback is a hint (the gateway always asks getOrderStatusExtended before acting), so a
 * merchant endpoint that stays down costs only a logged warning after the last try.
 */
export function createCallbackNotifier(options: CallbackNotifierOptions): {
  send(notification: SimulatorNotification): void;
} {
  const fetchImpl = options.fetchImpl ?? globalThis.fetch;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? 5_000;

  function urlFor(n: SimulatorNotification): string {
    const url = new URL(options.callbackUrl);
    url.searchParams.set("mdOrder", n.acquirerOrderId);
    url.searchParams.set("orderNumber", n.orderNumber);
    url.searchParams.set("operation", n.operation);
    url.searchParams.set("status", String(n.status));
    return url.toString();
  }

  function attempt(n: SimulatorNotification, tryIndex: number): void {
    void (async () => {
      let problem: string;
      try {
        const res = await fetchImpl(urlFor(n), {
          method: "GET",
          signal: AbortSignal.timeout(timeoutMs),
          redirect: "manual",
        });
        await res.body?.cancel();
        if (res.status >= 200 && res.status < 300) return;
        problem = `HTTP ${res.status}`;
      } catch (err) {
        problem = err instanceof Error ? err.name : "error";
      }
      const delay = delays[tryIndex];
      if (delay === undefined) {
        options.logger?.warn(
          { mdOrder: n.acquirerOrderId, operation: n.operation, problem, tries: tryIndex + 1 },
          "simulator callback not delivered",
        );
        return;
      }
      setTimeout(() => attempt(n, tryIndex + 1), delay).unref();
    })();
  }

  return { send: (notification) => attempt(notification, 0) };
}
