// Start-up time and idle memory of every gateway process, TypeScript through tsx (development)
// against the compiled JavaScript (production, `npm run build`), side by side in one run.
//
// Run: npx tsx bench/runtime-bench.ts [--rounds N] [--settle-seconds S]
//      PATH="$(bash scripts/install-node24.sh):$PATH" npx tsx bench/runtime-bench.ts   (on Node 24)
//
// Each round starts the whole distributed stack (epg-simulator, accounts, sessions, refunds,
// webhooks, edge; one local FerretDB and NATS for the run) once with tsx and once compiled,
// alternating which goes first, so both see the same machine load. Per process:
// - start-up: spawn until GET /readyz first answers 200 (the stack starts one process at a time,
//   so each is measured alone; polled every 20 ms);
// - idle RSS: after S seconds with no traffic, VmRSS of the process plus its child processes
//   (tsx's esbuild service), from /proc.
// Medians over the rounds; ratio = compiled / tsx.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { type ServiceName, serviceEntries, startDistributedGateway } from "@gateway/launcher";
import { type ProcessRuntime, startFerretDb, startNatsServer } from "@gateway/testkit";

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

const rounds = argument("rounds", 3);
const settleSeconds = argument("settle-seconds", 10);
const services = Object.keys(serviceEntries) as ServiceName[];
const runtimes: ProcessRuntime[] = ["tsx", "compiled"];

/** Resident set size of a process, in KiB (VmRSS from /proc/<pid>/status). */
function rssKib(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : 0;
}

/** The process and all its descendants (tsx's esbuild service runs as a child process). */
function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    return text ? text.split(/\s+/).map(Number) : [];
  });
  return [pid, ...children.flatMap(processTree)];
}

interface Sample {
  startMs: number;
  rssMib: number;
  processes: number;
}

async function measure(
  runtime: ProcessRuntime,
  mongodbUrl: string,
  natsUrl: string,
  round: number,
): Promise<Record<ServiceName, Sample>> {
  const gw = await startDistributedGateway({
    mongodbUrl,
    natsUrl,
    runtime,
    databasePrefix: `bench_runtime_${runtime}_${round}_${Date.now().toString(36)}`,
    env: { LOG_LEVEL: "warn" },
  });
  try {
    await sleep(settleSeconds * 1000);
    const samples = {} as Record<ServiceName, Sample>;
    for (const name of services) {
      const managed = gw.processes[name];
      const tree = processTree(managed.pid);
      samples[name] = {
        startMs: managed.readyMs ?? Number.NaN,
        rssMib: tree.reduce((sum, pid) => sum + rssKib(pid), 0) / 1024,
        processes: tree.length,
      };
    }
    return samples;
  } finally {
    await gw.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  process.stdout.write(`building (npm run build)…\n`);
  execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
  const mongo = await startFerretDb();
  const nats = await startNatsServer();
  const results: Record<ProcessRuntime, Record<ServiceName, Sample>[]> = { tsx: [], compiled: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? runtimes : [...runtimes].reverse();
      for (const runtime of order) {
        process.stdout.write(`round ${round + 1}/${rounds}: ${runtime}…\n`);
        results[runtime].push(await measure(runtime, mongo.url, nats.url, round));
      }
    }
  } finally {
    await nats.stop();
    await mongo.stop();
  }

  const stat = (runtime: ProcessRuntime, name: ServiceName, key: keyof Sample) =>
    median(results[runtime].map((r) => r[name][key]));
  const lines = [
    `Node ${process.versions.node}, ${rounds} rounds, idle RSS after ${settleSeconds} s; medians; ratio = compiled / tsx`,
    "",
    "| process | start-up tsx (ms) | start-up compiled (ms) | ratio | idle RSS tsx (MiB) | idle RSS compiled (MiB) | ratio |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  let total = { tsx: 0, compiled: 0 };
  for (const name of services) {
    const [startTsx, startCompiled] = [stat("tsx", name, "startMs"), stat("compiled", name, "startMs")];
    const [rssTsx, rssCompiled] = [stat("tsx", name, "rssMib"), stat("compiled", name, "rssMib")];
    total = { tsx: total.tsx + rssTsx, compiled: total.compiled + rssCompiled };
    lines.push(
      `| ${name} | ${startTsx.toFixed(0)} | ${startCompiled.toFixed(0)} | ${(startCompiled / startTsx).toFixed(2)} | ` +
        `${rssTsx.toFixed(1)} | ${rssCompiled.toFixed(1)} | ${(rssCompiled / rssTsx).toFixed(2)} |`,
    );
  }
  lines.push(
    `| **all six** | | | | **${total.tsx.toFixed(0)}** | **${total.compiled.toFixed(0)}** | **${(total.compiled / total.tsx).toFixed(2)}** |`,
  );
  const childCounts = runtimes
    .map((runtime) => `${runtime}: ${median(results[runtime].map((r) => r.edge.processes))}`)
    .join(", ");
  lines.push("", `OS processes per service (edge, median): ${childCounts}`);
  process.stdout.write(`\n${lines.join("\n")}\n`);
}

await main();
