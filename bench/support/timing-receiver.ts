import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver on loopback that answers 200 and times each webhook from the moment its
 * event was published (`expect`) to the moment its last body byte arrived. Repeats of one id
 * (retries, resends) count once.
 */
export interface TimingReceiver {
  readonly url: string;
  /** An event published at `at` (performance.now()), whose webhook id is `id`. */
  expect(id: string, at: number): void;
  /** Forget everything expected and received. */
  reset(): void;
  /** Resolves once every expected id has arrived; rejects after `timeoutMs`. */
  waitForAll(timeoutMs: number): Promise<void>;
  /** Milliseconds from publish to arrival, one per expected id that arrived. */
  latencies(): number[];
  close(): Promise<void>;
}

export async function startTimingReceiver(): Promise<TimingReceiver> {
  let expected = new Map<string, number>();
  let arrived = new Map<string, number>();
  let missing = 0;
  let onArrival: (() => void) | undefined;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const at = performance.now();
      const id = req.headers["x-service-webhook-id"];
      if (typeof id === "string" && !arrived.has(id)) {
        arrived.set(id, at);
        if (expected.has(id)) missing--;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      onArrival?.();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const allArrived = () => missing === 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    expect(id, at) {
      if (!expected.has(id) && !arrived.has(id)) missing++;
      expected.set(id, at);
    },
    reset() {
      expected = new Map();
      arrived = new Map();
      missing = 0;
    },
    waitForAll(timeoutMs) {
      if (allArrived()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          onArrival = undefined;
          reject(new Error(`${missing} of ${expected.size} webhooks had not arrived after ${timeoutMs} ms`));
        }, timeoutMs);
        onArrival = () => {
          if (!allArrived()) return;
          clearTimeout(timer);
          onArrival = undefined;
          resolve();
        };
      });
    },
    latencies: () =>
      [...expected].flatMap(([id, at]) => {
        const got = arrived.get(id);
        return got === undefined ? [] : [got - at];
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
