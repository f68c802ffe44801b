// One request type measured at one growth step of bench/http-scale-bench.ts, on two distributed
// stacks side by side: the reference stack, which holds only the sessions its own requests
// created, and the grown stack, which holds the same plus the step's pre-stored clones. They share
// the database server (FerretDB and PostgreSQL) and the load generator, and their slices take
// turns (reference first in one round, grown first in the next), so a machine that slows down as
// a whole slows both: a single closed loop of ten seconds moved by up to a third from one run to
// the next on a 2-core machine, in every process at once, and growth measured one step after
// another read that as the data's doing. Each stack's rate is the median of its slices; its CPU
// per request is summed over its own slices only, for the database servers (the cost that more
// stored documents would raise) and for the stack's own gateway processes (which they do not
// touch).
import { closedLoop, type LoadResult, type Send } from "./http-load.js";
import type { GrowthMeasure } from "./http-scale-tables.js";
import { cpuSecondsSince, type NamedProcesses, readCpu } from "./process-cpu.js";

/** One stack's side of the comparison: its request, and the processes that are its gateway. */
export interface GrowthContender {
  send: Send;
  gateway: NamedProcesses;
}

export interface SideBySide<T> {
  reference: T;
  grown: T;
}

export async function measureSideBySide(o: {
  contenders: SideBySide<GrowthContender>;
  concurrency: number;
  seconds: number;
  /** Slices per stack. */
  slices: number;
  /** The database servers both stacks use. */
  database: NamedProcesses;
  /** Called with each slice, e.g. to record its failures. */
  onSlice?: (slice: LoadResult, side: keyof SideBySide<unknown>) => void;
}): Promise<SideBySide<GrowthMeasure>> {
  const tally = { reference: newTally(), grown: newTally() };
  for (let round = 0; round < o.slices; round++) {
    const order: Array<keyof SideBySide<unknown>> =
      round % 2 === 0 ? ["reference", "grown"] : ["grown", "reference"];
    for (const side of order) {
      const gateway = o.contenders[side].gateway;
      const databaseBefore = readCpu(o.database);
      const gatewayBefore = readCpu(gateway);
      const slice = await closedLoop(o.contenders[side].send, o.concurrency, o.seconds);
      tally[side].databaseSeconds += cpuSecondsSince(o.database, databaseBefore);
      tally[side].gatewaySeconds += cpuSecondsSince(gateway, gatewayBefore);
      tally[side].slices.push(slice);
      o.onSlice?.(slice, side);
    }
  }
  return { reference: measureOf(tally.reference), grown: measureOf(tally.grown) };
}

interface Tally {
  slices: LoadResult[];
  databaseSeconds: number;
  gatewaySeconds: number;
}

const newTally = (): Tally => ({ slices: [], databaseSeconds: 0, gatewaySeconds: 0 });

function measureOf(t: Tally): GrowthMeasure {
  const requests = t.slices.reduce((sum, r) => sum + r.requests, 0);
  const perRequestUs = (cpuSeconds: number) => (requests > 0 ? (cpuSeconds * 1e6) / requests : 0);
  const byRate = [...t.slices].sort((a, b) => a.perSecond - b.perSecond);
  return {
    median: byRate[Math.floor(byRate.length / 2)]!,
    sliceRates: t.slices.map((r) => r.perSecond),
    errors: t.slices.reduce((sum, r) => sum + r.errors, 0),
    databaseCpuUs: perRequestUs(t.databaseSeconds),
    gatewayCpuUs: perRequestUs(t.gatewaySeconds),
  };
}
