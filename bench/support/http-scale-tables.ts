// Markdown tables of bench/http-scale-bench.ts.
import { RAISED_NICE } from "./generator-priority.js";
import type { SideBySide } from "./growth-slices.js";
import { type LoadResult, P99_SLICE_SECONDS } from "./http-load.js";

/**
 * One target's request: saturation, then half that rate, measured after a warm-up at that rate
 * whose own p99 is shown beside it, not counted.
 */
export interface HalfLoadRow {
  sat: LoadResult;
  halfWarmup?: LoadResult;
  half: LoadResult;
  /** CPU the target's processes (and the servers it stores in) used at half load, in cores. */
  halfCores: number;
}

/** One request measured on a gateway and on its floor. */
export interface OpRow {
  mode: string;
  op: string;
  gateway: HalfLoadRow;
  floor: HalfLoadRow;
}

export function printOps(rows: OpRow[]): void {
  console.log(
    `\n| mode | request | gateway req/s | floor req/s | gateway ÷ floor | gateway p50 / p99 ms at 50% | floor p50 / p99 ms at 50% | worst ${P99_SLICE_SECONDS}-s slice's p99 ms at 50%, gateway / floor | load generator's longest start delay ms at 50%, gateway / floor | slowest 1% at 50%: stretches, longest ms, gateway / floor | p99 ms in the warm-up at 50% (not counted), gateway / floor | cores busy at 50%, gateway / floor | failed, gateway / floor |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const { mode, op, gateway: g, floor: f } of rows)
    console.log(
      `| ${mode} | ${op} | ${perSecond(g.sat)} | ${perSecond(f.sat)} | ${ratio(g.sat, f.sat)} | ` +
        `${ms(g.half.p50)} / ${ms(g.half.p99)} | ${ms(f.half.p50)} / ${ms(f.half.p99)} | ` +
        `${worstSlice(g.half)} / ${worstSlice(f.half)} | ` +
        `${ms(g.half.maxStartDelayMs ?? Number.NaN)} / ${ms(f.half.maxStartDelayMs ?? Number.NaN)} | ` +
        `${stretches(g.half)} / ${stretches(f.half)} | ` +
        `${warmupP99(g)} / ${warmupP99(f)} | ` +
        `${g.halfCores.toFixed(2)} / ${f.halfCores.toFixed(2)} | ` +
        `${failed(g)} / ${failed(f)} |`,
    );
  console.log(`\n${generatorPriorityNote(rows.flatMap((r) => [r.gateway.half, r.floor.half]))}`);
  console.log(`\nThe p99 of each ${P99_SLICE_SECONDS}-s slice of the 50% loop, ms in the order run:\n`);
  for (const { mode, op, gateway: g, floor: f } of rows)
    console.log(`- ${mode} ${op}: gateway ${slices(g.half)}; floor ${slices(f.half)}`);
}

/**
 * The embedded create at saturation measured the other way from the table: with a generator that
 * polls for answers, or one that sleeps between them and whose wake-ups the slower target pays
 * for (./http-load.ts).
 */
export function printEmbeddedCreatesTheOtherWay([gateway, floor]: LoadResult[], polling: boolean): void {
  if (!gateway || !floor) return;
  const way = polling ? "polls for answers" : "sleeps between answers";
  console.log(
    `\nEmbedded create at saturation with a generator that ${way}, for comparison: ` +
      `${perSecond(gateway)} ÷ ${perSecond(floor)} = ${ratio(gateway, floor)}.`,
  );
}

const worstSlice = (r: LoadResult) => (r.sliceP99s?.length ? ms(Math.max(...r.sliceP99s)) : "–");
const slices = (r: LoadResult) => r.sliceP99s?.map(ms).join(", ") || "–";
const warmupP99 = (r: HalfLoadRow) => (r.halfWarmup ? ms(r.halfWarmup.p99) : "–");
const failed = (r: HalfLoadRow) => r.sat.errors + (r.halfWarmup?.errors ?? 0) + r.half.errors;

/** Whether the open loops' generator ran at a raised priority, as every latency above depends on it. */
export function generatorPriorityNote(halves: LoadResult[]): string {
  const raised = halves.filter((r) => r.generatorRaised).length;
  if (raised === halves.length) return `The load generator ran the 50% loops at nice ${RAISED_NICE}.`;
  if (raised === 0)
    return "The load generator ran the 50% loops at the usual priority: raising it was not permitted.";
  return `The load generator ran ${raised} of ${halves.length} 50% loops at nice ${RAISED_NICE}, the rest at the usual priority.`;
}

/** One request on one stack at one growth step: the median of its slices, and the CPU it cost. */
export interface GrowthMeasure {
  /** The slice with the median rate (./growth-slices.ts). */
  median: LoadResult;
  /** Each slice's rate, in the order they ran. */
  sliceRates: number[];
  /** Failed requests over every slice. */
  errors: number;
  /** CPU µs of the database servers (FerretDB, PostgreSQL, nats-server) per request, over this stack's slices. */
  databaseCpuUs: number;
  /** CPU µs of this stack's gateway processes per request, over its slices: the machine's speed at the time. */
  gatewayCpuUs: number;
}

/**
 * One growth step: `k` sessions pre-stored in the grown stack only, then create/s and GET/s on
 * the reference stack and on the grown stack, side by side (./growth-slices.ts).
 */
export interface GrowthStep {
  k: number;
  documents: SideBySide<number>;
  /** Seconds waited after storing them for the database servers to fall quiet. */
  settledAfterS: number;
  create: SideBySide<GrowthMeasure>;
  get: SideBySide<GrowthMeasure>;
}

/**
 * Each step's rates on both stacks and the grown stack's as a ratio to the reference's, with the
 * CPU per request of each. The database's CPU is what stored documents could raise; the
 * gateway's is there to tell a slower machine (both rise) from a database slowed by its data
 * (only the database's rises).
 */
export function printGrowth(steps: GrowthStep[], slices: number): void {
  const columns = (request: string) =>
    `${request}/s, median of ${slices}, reference / grown | grown ÷ reference | ` +
    `CPU µs per ${request}, database, reference / grown | CPU µs per ${request}, gateway, reference / grown | failed ${request}s`;
  console.log(
    `\n| sessions pre-stored in the grown stack | documents in sessions, reference / grown | database quiet after s | ${columns("create")} | ${columns("GET")} |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const both = (m: SideBySide<GrowthMeasure>, value: (g: GrowthMeasure) => string) =>
    `${value(m.reference)} / ${value(m.grown)}`;
  const cells = (m: SideBySide<GrowthMeasure>) =>
    `${both(m, (g) => perSecond(g.median))} | ${ratio(m.grown.median, m.reference.median)} | ` +
    `${both(m, (g) => g.databaseCpuUs.toFixed(0))} | ${both(m, (g) => g.gatewayCpuUs.toFixed(0))} | ` +
    `${m.reference.errors + m.grown.errors}`;
  for (const s of steps)
    console.log(
      `| ${s.k} | ${s.documents.reference} / ${s.documents.grown} | ${s.settledAfterS.toFixed(0)} | ${cells(s.create)} | ${cells(s.get)} |`,
    );
  console.log(
    "\nEach slice's rate, req/s in the order run (the stacks took turns: reference, grown, then grown, reference, and so on):\n",
  );
  const rates = (m: GrowthMeasure) => m.sliceRates.map((r) => r.toFixed(0)).join(", ");
  for (const s of steps)
    for (const [request, m] of [
      ["create", s.create],
      ["GET", s.get],
    ] as const)
      console.log(
        `- ${s.k} pre-stored, ${request}: reference ${rates(m.reference)}; grown ${rates(m.grown)}`,
      );
}

export const perSecond = (r: LoadResult) => r.perSecond.toFixed(r.perSecond < 10 ? 1 : 0);
export const ratio = (a: LoadResult, b: LoadResult) =>
  b.perSecond > 0 ? (a.perSecond / b.perSecond).toFixed(2) : "n/a";
/** Latency of the successful requests; none succeeded: a dash. */
export const ms = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(v < 10 ? 2 : 1));
/** The open loop's slowest 1%: in how many stretches of time, and the longest, e.g. "3, 62.0". */
export const stretches = (r: LoadResult) => (r.tail ? `${r.tail.stretches}, ${ms(r.tail.longestMs)}` : "–");
