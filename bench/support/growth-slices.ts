// One request type measured at one growth step of bench/http-scale-bench.ts. A single closed loop
// of ten seconds moved by up to a third from one run to the next on a 2-core machine, and the
// change was in the gateway's own processes (their CPU per create), not in the database's, so one
// slow slice could read as growth. The step therefore runs several slices and keeps the median
// rate, and reports the database servers' CPU per request over all of them: the cost that more
// stored documents would raise.
import { closedLoop, type LoadResult, type Send } from "./http-load.js";
import type { GrowthMeasure } from "./http-scale-tables.js";
import { readCpu } from "./process-cpu.js";

export async function measureGrowthSlices(o: {
  send: Send;
  concurrency: number;
  seconds: number;
  slices: number;
  database: ReadonlyArray<{ name: string; pid: number }>;
  /** Called with each slice, e.g. to record its failures. */
  onSlice?: (slice: LoadResult) => void;
}): Promise<GrowthMeasure> {
  const results: LoadResult[] = [];
  const before = readCpu(o.database);
  for (let i = 0; i < o.slices; i++) {
    const slice = await closedLoop(o.send, o.concurrency, o.seconds);
    o.onSlice?.(slice);
    results.push(slice);
  }
  const after = readCpu(o.database);
  const cpuSeconds = after.reduce((sum, r, i) => sum + r.cpuSeconds - before[i]!.cpuSeconds, 0);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const byRate = [...results].sort((a, b) => a.perSecond - b.perSecond);
  return {
    median: byRate[Math.floor(byRate.length / 2)]!,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    databaseCpuUs: requests > 0 ? (cpuSeconds * 1e6) / requests : 0,
  };
}
