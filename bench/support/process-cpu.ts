// CPU time of processes from /proc (Linux), for the idle-CPU table of bench/http-scale-bench.ts.
// A process group's time is the root's utime+stime+cutime+cstime plus every live descendant's
// utime+stime: a child that exits (a PostgreSQL backend) moves from the second sum into the
// root's cutime/cstime, so the difference between two readings stays right.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = clockTicks();

function clockTicks(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}

interface Stat {
  pid: number;
  ppid: number;
  ownTicks: number;
  childTicks: number;
}

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // Gone.
  }
  // Fields after the command name "(…)", which may itself hold spaces; the state is field 3.
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const n = (i: number) => Number(f[i - 3]);
  return { pid, ppid: n(4), ownTicks: n(14) + n(15), childTicks: n(16) + n(17) };
}

function allPids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** CPU seconds used so far by `root` and its descendants (see the header). */
export function groupCpuSeconds(root: number): number {
  const stats = allPids()
    .map(readStat)
    .filter((s) => s !== undefined);
  const children = new Map<number, Stat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const rootStat = stats.find((s) => s.pid === root);
  if (!rootStat) return Number.NaN;
  let ticks = rootStat.ownTicks + rootStat.childTicks;
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const s = queue.pop()!;
    ticks += s.ownTicks;
    queue.push(...(children.get(s.pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * The outermost processes whose command line matches: for a server started through a wrapper
 * (PostgreSQL under another account), the wrapper, whose descendants include the server.
 */
export function findProcesses(matches: (cmdline: string) => boolean): number[] {
  const matching = new Set(allPids().filter((pid) => matches(cmdline(pid))));
  return [...matching].filter((pid) => !matching.has(readStat(pid)?.ppid ?? -1));
}

/** The local servers a distributed gateway runs on, found from their URLs' ports. */
export function serverProcesses(mongodbUrl: string, natsUrl: string): Array<{ name: string; pid: number }> {
  const found: Array<{ name: string; pid: number }> = [];
  const mongoPort = new URL(mongodbUrl).port;
  for (const pid of findProcesses(
    (c) => /ferretdb/.test(c) && c.includes(`--listen-addr=127.0.0.1:${mongoPort} `),
  ))
    found.push({ name: "FerretDB", pid });
  const pgPort = /--postgresql-url=\S+:(\d+)\//.exec(found[0] ? cmdline(found[0].pid) : "")?.[1];
  if (pgPort)
    for (const pid of findProcesses((c) => /postgres/.test(c) && c.includes(`port=${pgPort} `)))
      found.push({ name: "PostgreSQL", pid });
  const natsPort = new URL(natsUrl).port;
  for (const pid of findProcesses((c) => /nats-server/.test(c) && c.includes(` -p ${natsPort} `)))
    found.push({ name: "nats-server", pid });
  return found;
}

export interface CpuReading {
  name: string;
  pid: number;
  cpuSeconds: number;
}

export type NamedProcesses = ReadonlyArray<{ name: string; pid: number }>;

export const readCpu = (procs: NamedProcesses): CpuReading[] =>
  procs.map((p) => ({ ...p, cpuSeconds: groupCpuSeconds(p.pid) }));

/** CPU seconds `procs` spent together since `before`, a `readCpu` of the same list. */
export const cpuSecondsSince = (procs: NamedProcesses, before: CpuReading[]): number =>
  readCpu(procs).reduce((sum, r, i) => sum + r.cpuSeconds - before[i]!.cpuSeconds, 0);
