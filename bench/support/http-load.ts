// Load generation for bench/http-scale-bench.ts: keep-alive HTTP/1.1 over node:http, closed loop
// (N clients, each sending its next request when the last one answered) and open loop (requests
// started on a fixed schedule, whatever the answers, with latency counted from the scheduled
// start so a stalled server cannot hide its queue: no coordinated omission).
import { Agent, request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { withRaisedPriority } from "./generator-priority.js";
import { percentile, sliceP99s } from "./percentile.js";
import { SampleLog } from "./sample-log.js";
import { type TailStretches, tailStretches } from "./tail-stretches.js";

export interface HttpAnswer {
  status: number;
  body: string;
  /** Milliseconds from sending to the response's headers (time to first byte). */
  ttfbMs: number;
  /** Milliseconds from sending to the body's last byte. */
  totalMs: number;
}

/** What sends the bench's requests: node:http here, or ./lean-http-client.ts in the open loops. */
export interface HttpSender {
  send(
    method: "GET" | "POST",
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpAnswer>;
  close(): void;
}

/** One keep-alive connection pool to one server, through node:http. */
export class HttpClient implements HttpSender {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, maxSockets = 256) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  send(method: "GET" | "POST", path: string, headers: Record<string, string>, body?: string) {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const t0 = performance.now();
      const req = request(
        {
          agent: this.agent,
          host: this.host,
          port: this.port,
          method,
          path,
          headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          const ttfbMs = performance.now() - t0;
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              ttfbMs,
              totalMs: performance.now() - t0,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoadResult {
  requests: number;
  errors: number;
  firstError?: string;
  perSecond: number;
  p50: number;
  p99: number;
  /**
   * Open loop only: the longest a request started behind its schedule, in ms. The loop starts
   * requests whatever the answers, so this is the load generator's own delay (its event loop, its
   * GC, or the machine pausing it), which every latency of that moment includes.
   */
  maxStartDelayMs?: number;
  /** Open loop only: when the requests at or above the p99 were scheduled (./tail-stretches.ts). */
  tail?: TailStretches;
  /** Open loop only: the p99 of each `P99_SLICE_SECONDS` of the loop, in time order (./percentile.ts). */
  sliceP99s?: number[];
  /** Open loop only: whether the generator ran at a raised priority (./generator-priority.ts). */
  generatorRaised?: boolean;
}

/** How long each slice of an open loop whose p99 is reported on its own is, in seconds. */
export const P99_SLICE_SECONDS = 10;

/** Sends one request; resolves with the latency sample (ms) to record, throws on a wrong answer. */
export type Send = () => Promise<number>;

/** How the load generator waits between answers, in a closed loop or an open one. */
export interface GeneratorWaitOptions {
  /**
   * Keep this thread's event loop turning while the clients wait, so it never sleeps: an answer
   * then reaches a generator that is awake, and the target's write wakes no one. On loopback the
   * kernel charges waking a sleeping generator to the target that writes the answer, and only a
   * target slower than the generator meets a sleeping one; polling takes that cost off it, at the
   * price of the rest of a core (docs/decisions.md#the-embedded-create-is-also-measured-with-a-generator-that-never-sleeps).
   */
  generatorPolls?: boolean;
}

/** `concurrency` clients, each sending back to back for `seconds`: throughput at saturation. */
export async function closedLoop(
  send: Send,
  concurrency: number,
  seconds: number,
  options: GeneratorWaitOptions = {},
): Promise<LoadResult> {
  const samples: number[] = [];
  const errors: string[] = [];
  const ms = await runClosedLoop(send, concurrency, seconds, samples, errors, options);
  return summarize(samples, errors, ms);
}

/**
 * A closed loop on each of `sends` for `seconds` in all, taken in `slices` turns: the first
 * target's slice, the second's, and so on, then again. The machine's speed can change from one
 * minute to the next, so a target measured in one stretch and its baseline in the next could
 * each catch a different speed; in turns, both see the same mix
 * (docs/decisions.md#a-target-and-its-baseline-are-measured-in-turns).
 */
export async function closedLoopsInTurns(
  sends: readonly Send[],
  concurrency: number,
  seconds: number,
  slices: number,
  options: GeneratorWaitOptions = {},
): Promise<LoadResult[]> {
  const runs = sends.map(() => ({ samples: [] as number[], errors: [] as string[], ms: 0 }));
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, send] of sends.entries()) {
      const run = runs[i]!;
      run.ms += await runClosedLoop(send, concurrency, seconds / slices, run.samples, run.errors, options);
    }
  }
  return runs.map((run) => summarize(run.samples, run.errors, run.ms));
}

/** Runs the clients until `seconds` have passed and their last requests are answered; the ms taken. */
async function runClosedLoop(
  send: Send,
  concurrency: number,
  seconds: number,
  samples: number[],
  errors: string[],
  options: GeneratorWaitOptions,
): Promise<number> {
  const began = performance.now();
  const until = began + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) await record(send, 0, (latency) => samples.push(latency), errors);
  };
  await waitingAs(options, () => Promise.all(Array.from({ length: concurrency }, client)));
  return performance.now() - began;
}

/**
 * `run()`, the generator waiting for its answers as `options` says. Polling is a chain of
 * immediates until `run` settles: while one is pending, libuv polls for I/O without blocking, so
 * the thread never sleeps waiting for an answer.
 */
async function waitingAs<T>(options: GeneratorWaitOptions, run: () => Promise<T>): Promise<T> {
  if (!options.generatorPolls) return run();
  let turning = true;
  const turn = () => {
    if (turning) setImmediate(turn);
  };
  turn();
  try {
    return await run();
  } finally {
    turning = false;
  }
}

/**
 * `rate` requests per second started on schedule for `seconds`; each latency runs from the
 * scheduled start, so time spent waiting behind a slow answer counts. The generator runs at a
 * raised priority meanwhile, where allowed (./generator-priority.ts).
 */
export async function openLoop(
  send: Send,
  rate: number,
  seconds: number,
  options: GeneratorWaitOptions = {},
): Promise<LoadResult> {
  const { result, raised } = await withRaisedPriority(() =>
    waitingAs(options, () => runOpenLoop(send, rate, seconds)),
  );
  return { ...result, generatorRaised: raised };
}

async function runOpenLoop(send: Send, rate: number, seconds: number): Promise<LoadResult> {
  const errors: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const began = performance.now();
  const total = Math.max(1, Math.floor(rate * seconds));
  let started = 0;
  let maxStartDelayMs = 0;
  // Each success's [scheduled start, latency], kept out of the generator's heap (./sample-log.ts).
  const successes = new SampleLog(total);
  while (started < total) {
    const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * rate) + 1);
    for (; started < due; started++) {
      const scheduledAt = (started * 1000) / rate;
      const lag = performance.now() - (began + scheduledAt);
      maxStartDelayMs = Math.max(maxStartDelayMs, lag);
      const p = record(send, lag, (latency) => successes.add(scheduledAt, latency), errors).finally(() =>
        inFlight.delete(p),
      );
      inFlight.add(p);
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  const scheduled = successes.pairs();
  const result = summarize(
    scheduled.map(([, latency]) => latency),
    errors,
    performance.now() - began,
  );
  return {
    ...result,
    maxStartDelayMs,
    tail: tailStretches(scheduled, result.p99),
    sliceP99s: sliceP99s(scheduled, P99_SLICE_SECONDS * 1000),
  };
}

async function record(
  send: Send,
  lagMs: number,
  onSample: (latencyMs: number) => void,
  errors: string[],
): Promise<void> {
  try {
    onSample(lagMs + (await send()));
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err));
  }
}

function summarize(samples: number[], errors: string[], ms: number): LoadResult {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    requests: samples.length,
    errors: errors.length,
    firstError: errors[0],
    perSecond: (samples.length / ms) * 1000,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}
