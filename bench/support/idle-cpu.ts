// The idle-CPU table of bench/http-scale-bench.ts: CPU time of each process over a window with no
// traffic, as % of one core, for the whole window and for each half (a first half above the
// second is work the load left behind draining, equal halves are steady background work).
import { setTimeout as sleep } from "node:timers/promises";
import { type CpuReading, cpuSecondsSince, readCpu } from "./process-cpu.js";

export async function printIdleCpu(
  procs: ReadonlyArray<{ name: string; pid: number }>,
  seconds: number,
  title: string,
): Promise<void> {
  const start = readCpu(procs);
  const t0 = performance.now();
  await sleep((seconds * 1000) / 2);
  const middle = readCpu(procs);
  const t1 = performance.now();
  await sleep((seconds * 1000) / 2);
  const end = readCpu(procs);
  const t2 = performance.now();
  const pct = (a: CpuReading[], b: CpuReading[], i: number, ms: number) =>
    ((b[i]!.cpuSeconds - a[i]!.cpuSeconds) / ms) * 1000 * 100;
  console.log(`\n${title}, over ${((t2 - t0) / 1000).toFixed(1)} s:\n`);
  console.log("| process | CPU seconds | % of a core | first half % | second half % |");
  console.log("|---|---|---|---|---|");
  const totals = [0, 0, 0, 0];
  for (const [i, p] of procs.entries()) {
    const row = [
      end[i]!.cpuSeconds - start[i]!.cpuSeconds,
      pct(start, end, i, t2 - t0),
      pct(start, middle, i, t1 - t0),
      pct(middle, end, i, t2 - t1),
    ];
    row.forEach((v, j) => {
      totals[j]! += v;
    });
    console.log(`| ${p.name} | ${row[0]!.toFixed(2)} | ${row.slice(1).map(fixed1).join(" | ")} |`);
  }
  console.log(`| all | ${totals[0]!.toFixed(2)} | ${totals.slice(1).map(fixed1).join(" | ")} |`);
}

const fixed1 = (v: number) => v.toFixed(1);

/**
 * Waits until `procs` together use under `quietPercent` of a core over `QUIET_WINDOWS` 2 s windows
 * in a row (at most `maxSeconds`); resolves with the seconds waited. A growth step measures the
 * store at rest with K documents, not PostgreSQL's autovacuum of the bulk load that just put them
 * there: autovacuum looks every second and may start only after a first quiet window, so one
 * window is not enough (a single window let a 100,000-row VACUUM run into the measurement).
 */
export async function waitUntilQuiet(
  procs: ReadonlyArray<{ name: string; pid: number }>,
  quietPercent: number,
  maxSeconds: number,
): Promise<number> {
  const t0 = performance.now();
  let quietInARow = 0;
  for (;;) {
    const before = readCpu(procs);
    const started = performance.now();
    await sleep(2_000);
    const busy = cpuSecondsSince(procs, before);
    const waited = (performance.now() - t0) / 1000;
    const quiet = (busy / ((performance.now() - started) / 1000)) * 100 < quietPercent;
    quietInARow = quiet ? quietInARow + 1 : 0;
    if (quietInARow >= QUIET_WINDOWS || waited >= maxSeconds) return waited;
  }
}

const QUIET_WINDOWS = 3;
