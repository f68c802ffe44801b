// An open loop (./http-load.ts) run in a worker thread of its own. The bench's main thread holds
// the stacks it started, their output and every result, and collects its garbage while the loop
// runs; in the same thread, each of those pauses was counted in the latency of every request due
// meanwhile (docs/decisions.md#the-open-loop-runs-in-a-worker-thread-of-its-own). A worker has a
// heap of its own, holding only the loop.
import { Worker } from "node:worker_threads";
import type { LoadResult } from "./http-load.js";
import type { RequestName, TrafficSpec } from "./session-traffic.js";

export interface OpenLoopJob {
  traffic: TrafficSpec;
  request: RequestName;
  rate: number;
  /**
   * The loops, one after the other, in seconds each: a warm-up first warms the worker's own code
   * too, which a new thread compiles afresh.
   */
  loops: readonly number[];
  /** Whether the worker polls for answers instead of sleeping between them (./http-load.ts). */
  generatorPolls?: boolean;
}

const WORKER_ENTRY = new URL("./open-loop-worker.cjs", import.meta.url);

/**
 * `openLoop` of `job.request` for each of `job.loops` in turn, in one new worker thread; the
 * result of each. Rejects if the worker fails or exits without its results.
 */
export function openLoopsInWorker(job: OpenLoopJob): Promise<LoadResult[]> {
  const valid = job.loops.length > 0 && job.loops.every((s) => s > 0 && Number.isFinite(job.rate * s));
  if (!(job.rate > 0 && valid)) {
    const asked = `${job.rate}/s for ${job.loops.join(", ") || "no"} s`;
    return Promise.reject(new RangeError(`open loops need a positive rate and durations, got ${asked}`));
  }
  return new Promise<LoadResult[]>((resolve, reject) => {
    const worker = new Worker(WORKER_ENTRY, { workerData: job });
    let result: LoadResult[] | undefined;
    worker.once("message", (r: LoadResult[]) => {
      result = r;
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (result) resolve(result);
      else reject(new Error(`the open loop's worker exited with code ${code} before its results`));
    });
  });
}
