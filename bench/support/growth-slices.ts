// One request type measured at one growth step of bench/http-scale-bench.ts. A single closed loop
// of ten seconds moved by up to a third from one run to the next on a 2-core machine, and the
// change was in every process at once (the edge, which never touches the database, spent up to
// twice its usual CPU per create), so one slow slice could read as growth. The step therefore
// runs several slices and keeps the median rate, and reports CPU per request over all of them
// for the database servers (the cost that more stored documents would raise) and for the
// gateway's processes (which stored documents do not touch: when both rise together, the machine
// was slower).
import { closedLoop, type LoadResult, type Send } from "./http-load.js";
import type { GrowthMeasure } from "./http-scale-tables.js";
import { cpuSecondsSince, type NamedProcesses, readCpu } from "./process-cpu.js";

export async function measureGrowthSlices(o: {
  send: Send;
  concurrency: number;
  seconds: number;
  slices: number;
  database: NamedProcesses;
  gateway: NamedProcesses;
  /** Called with each slice, e.g. to record its failures. */
  onSlice?: (slice: LoadResult) => void;
}): Promise<GrowthMeasure> {
  const results: LoadResult[] = [];
  const databaseBefore = readCpu(o.database);
  const gatewayBefore = readCpu(o.gateway);
  for (let i = 0; i < o.slices; i++) {
    const slice = await closedLoop(o.send, o.concurrency, o.seconds);
    o.onSlice?.(slice);
    results.push(slice);
  }
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  const perRequestUs = (cpuSeconds: number) => (requests > 0 ? (cpuSeconds * 1e6) / requests : 0);
  const byRate = [...results].sort((a, b) => a.perSecond - b.perSecond);
  return {
    median: byRate[Math.floor(byRate.length / 2)]!,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    databaseCpuUs: perRequestUs(cpuSecondsSince(o.database, databaseBefore)),
    gatewayCpuUs: perRequestUs(cpuSecondsSince(o.gateway, gatewayBefore)),
  };
}
