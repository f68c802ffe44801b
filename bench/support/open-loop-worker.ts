// The thread ./open-loop-in-worker.ts starts (through ./open-loop-worker.cjs): one open loop of
// one request against one target, its result posted back. Nothing else runs here, so nothing
// else's garbage is collected here.
import { parentPort, workerData } from "node:worker_threads";
import { type LoadResult, openLoop } from "./http-load.js";
import { LeanHttpClient } from "./lean-http-client.js";
import type { OpenLoopJob } from "./open-loop-in-worker.js";
import { SessionTraffic } from "./session-traffic.js";

const job = workerData as OpenLoopJob;
// Latency is measured through the lean client: the generator's own CPU is then the least it can
// take from the servers it measures (./lean-http-client.ts).
const traffic = SessionTraffic.fromSpec(job.traffic, new LeanHttpClient(job.traffic.url));
// Loaded as CommonJS (see the .cjs entry), so no top-level await.
void runLoops()
  .then((results) => parentPort!.postMessage(results))
  .finally(() => traffic.close());

async function runLoops(): Promise<LoadResult[]> {
  const results: LoadResult[] = [];
  for (const seconds of job.loops)
    results.push(
      await openLoop(traffic.send(job.request), job.rate, seconds, {
        generatorPolls: job.generatorPolls ?? false,
      }),
    );
  return results;
}
