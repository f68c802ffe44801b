// HTTP at scale (issue 12): the gateway's create, GET and hosted-checkout requests against their
// floors, how they hold up as the sessions collection grows, and what the stack burns when idle.
//   1. create, GET session and checkout page (time to first byte), each measured on the gateway
//      and on its floor (bench/support/http-floor-server.ts, a plain fastify process doing only
//      the storage work): embedded (`npm start`, in memory) against a Map; distributed (a process
//      per service, FerretDB, NATS) against insertOne + JetStream publish on the SAME servers.
//      Throughput at saturation (closed loop, --concurrency clients for --seconds, the gateway and
//      its floor in --turns alternating slices, so both see the same machine; the embedded
//      create's saturation is also measured with the generator polling for answers instead of
//      sleeping between them, or the other way round with --embedded-generator-polls), then p50/p99
//      latency in an open loop at half that rate for --half-load-seconds (latency from the
//      scheduled start; each 10-s slice's p99 is listed under the table too), after
//      --half-load-warmup seconds at that rate whose p99 is shown but not counted, with the
//      load generator's longest delay in starting a request: a p99 near it is the generator's or
//      the machine's pause, which every request of that moment includes, not the target's; and
//      how many separate stretches of time the slowest 1% fell in: a few long ones are stalls
//      (bench/support/tail-stretches.ts); and the cores the target's processes, with the database
//      and bus it stores in, kept busy over the half-load loops: half the saturated rate is not
//      half the machine.
//   2. growth (distributed), side by side: two fresh stacks on one database server (FerretDB and
//      PostgreSQL; a NATS each). At each step K sessions are pre-stored in the grown stack only
//      (bulk clones of one it stored), and once the database servers have settled after the bulk
//      load (under 10% of a core together), create/s and GET/s (the grown stack GETs clones, the
//      reference its own sessions) are measured on both stacks in turns, --growth-slices closed
//      loops each (bench/support/growth-slices.ts): the grown stack's median rate as a ratio to
//      the reference's, with the CPU per request of the database servers and of each stack's
//      gateway processes. A machine that slows down as a whole slows both stacks; only the data
//      sets them apart. Before the first step, each stack runs creates, then GETs, for --seconds
//      (or --warmup if longer), and before each step's slices, once the database has settled,
//      creates for --warmup seconds. --growth-only: this, and the idle reading below, without
//      part 1.
//   3. idle CPU: after the load and a short settle, CPU of every gateway process and of FerretDB,
//      PostgreSQL (GATEWAY_FERRETDB_BACKEND=postgresql) and nats-server over --idle-seconds, on
//      the grown stack at the largest growth step, the reference stack stopped. --idle-only: that
//      alone, the stack never loaded (one session created, the largest step cloned), to attribute
//      idle work, e.g. with GATEWAY_SWEEP_INTERVAL.
// Run: npx tsx bench/http-scale-bench.ts [--seconds S] [--warmup S] [--half-load-warmup S] [--half-load-seconds S]
//        [--concurrency N] [--turns N]
//        [--growth 0,1000,10000] [--growth-slices N] [--growth-only] [--idle-seconds S] [--idle-only]
//        [--log-level info] [--embedded-generator-polls]
// The load generator is this process (node:http, keep-alive); every server is its own process,
// started with this process's environment (GATEWAY_* settings reach every gateway process).
// MONGODB_URL / NATS_URL, when set, are used instead of local FerretDB / nats-server (growth's
// reference stack still gets a nats-server of its own).
import { cpus } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { randomBase62 } from "@gateway/platform";
import { ferretDbBackend } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { measureSideBySide, type SideBySide } from "./support/growth-slices.js";
import {
  closedLoop,
  closedLoopsInTurns,
  type GeneratorWaitOptions,
  type LoadResult,
  type Send,
} from "./support/http-load.js";
import {
  type GrowthStep,
  type HalfLoadRow,
  type OpRow,
  printEmbeddedCreatesTheOtherWay,
  printGrowth,
  printOps,
} from "./support/http-scale-tables.js";
import {
  type DistributedTarget,
  startDistributed,
  startEmbedded,
  startFloor,
  type Target,
} from "./support/http-targets.js";
import { printIdleCpu, waitUntilQuiet } from "./support/idle-cpu.js";
import { openLoopsInWorker } from "./support/open-loop-in-worker.js";
import { cpuSecondsSince, type NamedProcesses, readCpu, serverProcesses } from "./support/process-cpu.js";
import { sessionCloner } from "./support/session-clones.js";
import { type RequestName, SessionTraffic } from "./support/session-traffic.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    "half-load-warmup": { type: "string", default: "30" },
    "half-load-seconds": { type: "string", default: "60" },
    concurrency: { type: "string", default: "32" },
    turns: { type: "string", default: "5" },
    growth: { type: "string", default: "0,1000,10000" },
    "growth-slices": { type: "string", default: "3" },
    "idle-seconds": { type: "string", default: "20" },
    "idle-only": { type: "boolean", default: false },
    "growth-only": { type: "boolean", default: false },
    "log-level": { type: "string", default: "info" },
    "embedded-generator-polls": { type: "boolean", default: false },
  },
});
const SECONDS = positive(values.seconds, "--seconds");
const WARMUP = positive(values.warmup, "--warmup", true);
/**
 * Before each half-load measurement, an open loop at the same rate, not counted. In its first
 * half minute of load a fresh Node process optimises its hottest functions again, all at once,
 * on the cores the other processes need: one stall of about 200 ms on Node 24, once in a
 * process's life (docs/decisions.md#half-load-is-measured-once-the-processes-have-warmed-up).
 */
const HALF_LOAD_WARMUP = positive(values["half-load-warmup"], "--half-load-warmup", true);
/**
 * The measured half-load loop. Its p99 weighs a rare stall at its true frequency: a 10-s loop's p99
 * was decided by whether one stall of the machine fell in it. Each 10-s slice's p99 is printed too
 * (docs/decisions.md#the-half-load-p99-is-taken-over-a-minute).
 */
const HALF_LOAD_SECONDS = positive(values["half-load-seconds"], "--half-load-seconds");
/** Creates, then GETs, on each fresh stack of the growth before its first step. */
const GROWTH_WARMUP = Math.max(WARMUP, SECONDS);
const CONCURRENCY = wholeNumber(values.concurrency, "--concurrency", 1);
const TURNS = wholeNumber(values.turns, "--turns", 1);
const GROWTH = values.growth.split(",").map((k) => wholeNumber(k.trim(), "--growth", 0));
const GROWTH_SLICES = wholeNumber(values["growth-slices"], "--growth-slices", 1);
const IDLE_SECONDS = positive(values["idle-seconds"], "--idle-seconds");
/** Before the idle window: the relay and webhooks finish what the load left them. */
const SETTLE_SECONDS = Math.min(5, IDLE_SECONDS);
/** Before each growth step's measurement, the database servers settle below this (% of a core). */
const QUIET_PERCENT = 10;
const MAX_SETTLE_SECONDS = 300;
const DEMO_KEY = "sk_test_HttpScaleBench01AbcdefghijklmnopqrstuvwxyzAB";
const RUN = randomBase62(6);
const env = { LOG_LEVEL: values["log-level"] };
/**
 * Whether the embedded table's loops, closed and open, poll for answers instead of sleeping
 * between them. The embedded create's saturation is measured the other way too, for comparison
 * (./support/http-load.ts).
 */
const EMBEDDED_GENERATOR_POLLS = values["embedded-generator-polls"];

const OPS: readonly RequestName[] = ["create", "GET session", "checkout page (TTFB)"];

async function main(): Promise<void> {
  const backend = process.env.MONGODB_URL ? "MONGODB_URL" : `FerretDB 1.24 on ${ferretDbBackend()}`;
  console.log(
    `HTTP at scale: ${CONCURRENCY} clients, ${SECONDS} s per measurement (${WARMUP} s warm-up; ` +
      `${HALF_LOAD_WARMUP} s at half load before each half-load measurement of ${HALF_LOAD_SECONDS} s), ` +
      `${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ` +
      `distributed store: ${backend}, LOG_LEVEL=${env.LOG_LEVEL}\n`,
  );
  if (values["idle-only"]) return idleOnly();
  if (!values["growth-only"]) await requestsAgainstFloors();
  // Two fresh stacks on one database server: the grown one owns the servers, so that the idle
  // reading, taken once the reference stack is gone, sees only the grown stack's work.
  await withTargets([() => startStack("grown")], async ([t]) => {
    const grown = t as DistributedTarget;
    const reference = await startDistributed(databasePrefix("reference"), env, grown);
    try {
      await growth({ reference, grown });
    } finally {
      await reference.stop();
    }
    await idleCpu(grown);
  });
}

/** Part 1: each request on the embedded and the distributed gateway, against its floor. */
async function requestsAgainstFloors(): Promise<void> {
  const rows: OpRow[] = [];
  let otherWay: LoadResult[] = [];
  await withTargets([() => startEmbedded(DEMO_KEY, env), () => startFloor()], async ([gw, floor]) => {
    rows.push(...(await compare("embedded", gw!, floor!, [], { generatorPolls: EMBEDDED_GENERATOR_POLLS })));
    otherWay = await embeddedCreatesAtSaturation(gw!, floor!, { generatorPolls: !EMBEDDED_GENERATOR_POLLS });
  });
  printOps(rows);
  printEmbeddedCreatesTheOtherWay(otherWay, !EMBEDDED_GENERATOR_POLLS);
  await withTargets([startStack], async ([dist]) => {
    const { mongodbUrl, natsUrl } = (dist as DistributedTarget).gateway;
    await withTargets([() => startFloor({ mongodbUrl, natsUrl })], async ([floor]) => {
      const sharedServers = databaseProcesses(dist as DistributedTarget);
      rows.push(...(await compare("distributed", dist!, floor!, sharedServers)));
    });
  });
  printOps(rows.filter((r) => r.mode === "distributed"));
}

const databasePrefix = (stack: string) => `bench_http_${RUN.toLowerCase()}_${stack}`;
const startStack = (stack = "main") => startDistributed(databasePrefix(stack), env);

async function idleOnly(): Promise<void> {
  await withTargets([startStack], async ([t]) => {
    const dist = t as DistributedTarget;
    const traffic = new SessionTraffic(dist, `bench-${RUN}-idle`);
    try {
      await traffic.create();
      const clones = await openCloner(dist, traffic.ids[0]!);
      try {
        progress(`idle only: cloning ${Math.max(...GROWTH)} sessions`);
        await clones.add(Math.max(...GROWTH));
      } finally {
        await clones.close();
      }
      await idleCpu(dist, "no load before");
    } finally {
      traffic.close();
    }
  });
}

/** Clones into the stack's sessions collection, through a client that keeps Int64 as bigint. */
async function openCloner(dist: DistributedTarget, templateId: string) {
  const client = await MongoClient.connect(dist.gateway.mongodbUrl, {
    useBigInt64: true,
    retryWrites: false,
  });
  try {
    const cloner = await sessionCloner(client.db(`${dist.databasePrefix}_sessions`), templateId);
    return { ...cloner, close: () => client.close() };
  } catch (err) {
    await client.close();
    throw err;
  }
}

/** Starts the targets one by one, runs `body`, stops every one started, whatever happens. */
async function withTargets<T>(starts: Array<() => Promise<Target>>, body: (t: Target[]) => Promise<T>) {
  const started: Target[] = [];
  try {
    for (const start of starts) started.push(await start());
    return await body(started);
  } finally {
    for (const t of started.reverse()) await t.stop();
  }
}

/**
 * Each request on the gateway and on its floor: saturation in turns, then half load on each. Both
 * loops wait for answers as `options` says. `servers` are the database and bus both store in, whose
 * CPU counts in each one's half load beside its own processes'.
 */
async function compare(
  mode: string,
  gateway: Target,
  floor: Target,
  servers: NamedProcesses,
  options: GeneratorWaitOptions = {},
): Promise<OpRow[]> {
  const gw = new SessionTraffic(gateway, `bench-${RUN}-${mode}`);
  const fl = new SessionTraffic(floor, `bench-${RUN}-${mode}-floor`);
  const gwStack = [...gateway.processes, ...servers];
  const flStack = [...floor.processes, ...servers];
  try {
    progress(`${mode}: warm-up`);
    await closedLoop(gw.create, CONCURRENCY, WARMUP, options);
    await closedLoop(fl.create, CONCURRENCY, WARMUP, options);
    const rows: OpRow[] = [];
    for (const op of OPS) {
      progress(`${mode}: ${op}`);
      const [gwSat, flSat] = await closedLoopsInTurns(
        [gw.send(op), fl.send(op)],
        CONCURRENCY,
        SECONDS,
        TURNS,
        options,
      );
      const gwHalf = await withHalfLoad(gw, op, gwSat!, gwStack, `${mode} gateway ${op}`, options);
      rows.push({
        mode,
        op,
        gateway: gwHalf,
        floor: await withHalfLoad(fl, op, flSat!, flStack, `${mode} floor ${op}`, options),
      });
    }
    return rows;
  } finally {
    gw.close();
    fl.close();
  }
}

/**
 * The embedded create at saturation, gateway and floor in turns, its closed loops waiting for
 * answers as `options` says: the table's way's counterpart, printed under it for comparison
 * (docs/decisions.md#the-embedded-create-is-also-measured-with-a-generator-that-never-sleeps).
 */
async function embeddedCreatesAtSaturation(
  gateway: Target,
  floor: Target,
  options: GeneratorWaitOptions,
): Promise<LoadResult[]> {
  const label = options.generatorPolls ? "generator polling" : "generator sleeping";
  const gw = new SessionTraffic(gateway, `bench-${RUN}-embedded-other-way`);
  const fl = new SessionTraffic(floor, `bench-${RUN}-embedded-other-way-floor`);
  try {
    progress(`embedded: create, ${label}`);
    const results = await closedLoopsInTurns([gw.create, fl.create], CONCURRENCY, SECONDS, TURNS, options);
    return results.map((r, i) => checked(r, `embedded ${i === 0 ? "gateway" : "floor"} create, ${label}`));
  } finally {
    gw.close();
    fl.close();
  }
}

/**
 * The saturation result beside an open loop at half its rate, measured after --half-load-warmup at
 * that rate. The warm-up and the measured loop run in a worker thread of their own (./support/open-loop-in-worker.ts).
 * The CPU `stack` used over both loops, in cores, says how busy half the saturated rate keeps the
 * machine (docs/decisions.md#the-bench-shows-how-busy-half-load-keeps-the-machine).
 */
async function withHalfLoad(
  traffic: SessionTraffic,
  request: RequestName,
  saturation: LoadResult,
  stack: NamedProcesses,
  label: string,
  options: GeneratorWaitOptions,
): Promise<HalfLoadRow> {
  const sat = checked(saturation, `${label}, saturation`);
  const rate = Math.max(1, sat.perSecond / 2);
  const loops = HALF_LOAD_WARMUP > 0 ? [HALF_LOAD_WARMUP, HALF_LOAD_SECONDS] : [HALF_LOAD_SECONDS];
  const cpuBefore = readCpu(stack);
  const began = performance.now();
  const results = await openLoopsInWorker({ traffic: traffic.spec(), request, rate, loops, ...options });
  const halfCores = cpuSecondsSince(stack, cpuBefore) / ((performance.now() - began) / 1000);
  const warmup = results.length > 1 ? checked(results[0]!, `${label}, 50% warm-up`) : undefined;
  const half = checked(results.at(-1)!, `${label}, 50%`);
  return warmup ? { sat, halfWarmup: warmup, half, halfCores } : { sat, half, halfCores };
}

/** Failed requests are counted, not fatal: a gateway that fails under load is a result. */
const failures: string[] = [];

function checked(r: LoadResult, label: string): LoadResult {
  if (r.errors > 0) {
    const line = `${label}: ${r.errors} of ${r.errors + r.requests} failed, first: ${r.firstError?.slice(0, 160)}`;
    progress(`  ${line}`);
    failures.push(line);
  }
  return r;
}

/**
 * Growth, side by side: every step pre-stores sessions in the grown stack only, then measures
 * both stacks in turns (./support/growth-slices.ts). Both first create sessions for as long as a
 * warm-up, so both start with some of their own, and the grown stack has one to clone.
 */
async function growth(stacks: SideBySide<DistributedTarget>): Promise<void> {
  const traffic: SideBySide<SessionTraffic> = {
    reference: new SessionTraffic(stacks.reference, `bench-${RUN}-growth-reference`),
    grown: new SessionTraffic(stacks.grown, `bench-${RUN}-growth-grown`),
  };
  const database = [
    ...databaseProcesses(stacks.grown),
    ...serverProcesses(stacks.reference.gateway.mongodbUrl, stacks.reference.gateway.natsUrl).filter(
      (p) => p.name === "nats-server",
    ),
  ];
  try {
    // Fresh stacks: six processes each to warm up, not one. With only --warmup seconds of creates,
    // the first step measured them while their speed was still rising, and unevenly.
    progress("growth: warm-up");
    for (const side of ["reference", "grown"] as const) {
      await closedLoop(traffic[side].create, CONCURRENCY, GROWTH_WARMUP);
      traffic[side].getFrom(traffic[side].ids);
      await closedLoop(traffic[side].get, CONCURRENCY, GROWTH_WARMUP);
    }
    const cloner = await openCloner(stacks.grown, traffic.grown.ids[0]!);
    try {
      const sample: string[] = [];
      let stored = 0;
      const steps: GrowthStep[] = [];
      for (const k of GROWTH) {
        progress(`growth: ${k} pre-stored in the grown stack`);
        if (k > stored) sample.push(...(await cloner.add(k - stored)));
        stored = Math.max(stored, k);
        const settledAfterS = await waitUntilQuiet(database, QUIET_PERCENT, MAX_SETTLE_SECONDS);
        // After that pause the first slice ran slow on either stack (a third below the next, at
        // times): creates for --warmup seconds on each bring both back up to speed.
        for (const side of ["reference", "grown"] as const)
          await closedLoop(traffic[side].create, CONCURRENCY, WARMUP);
        traffic.grown.getFrom(sample.length > 0 ? sample : traffic.grown.ids);
        traffic.reference.getFrom(traffic.reference.ids);
        const documents = { reference: await countSessions(stacks.reference), grown: await cloner.count() };
        const sideBySide = (pick: (t: SessionTraffic) => Send, label: string) =>
          measureSideBySide({
            contenders: {
              reference: { send: pick(traffic.reference), gateway: stacks.reference.processes },
              grown: { send: pick(traffic.grown), gateway: stacks.grown.processes },
            },
            concurrency: CONCURRENCY,
            seconds: SECONDS,
            slices: GROWTH_SLICES,
            database,
            onSlice: (slice, side) => checked(slice, `growth ${k} ${label}, ${side} stack`),
          });
        const create = await sideBySide((t) => t.create, "create");
        const get = await sideBySide((t) => t.get, "GET");
        steps.push({ k, documents, settledAfterS, create, get });
      }
      printGrowth(steps, GROWTH_SLICES);
    } finally {
      await cloner.close();
    }
  } finally {
    traffic.reference.close();
    traffic.grown.close();
  }
}

/** Documents in a stack's sessions collection. */
async function countSessions(dist: DistributedTarget): Promise<number> {
  const client = await MongoClient.connect(dist.gateway.mongodbUrl, { retryWrites: false });
  try {
    return await client.db(`${dist.databasePrefix}_sessions`).collection("sessions").countDocuments();
  } finally {
    await client.close();
  }
}

/** FerretDB (and PostgreSQL under it) and nats-server of the distributed stack. */
const databaseProcesses = (dist: DistributedTarget) =>
  serverProcesses(dist.gateway.mongodbUrl, dist.gateway.natsUrl);

async function idleCpu(dist: DistributedTarget, before = "after the load"): Promise<void> {
  const procs = [...dist.processes, ...databaseProcesses(dist)];
  progress(`idle: ${SETTLE_SECONDS} s settle, then ${IDLE_SECONDS} s measured`);
  await sleep(SETTLE_SECONDS * 1000);
  const title = `Idle CPU, distributed, ${Math.max(...GROWTH)} sessions pre-stored, ${before} (then ${SETTLE_SECONDS} s settle)`;
  await printIdleCpu(procs, IDLE_SECONDS, title);
}

function printFailures(): void {
  if (failures.length === 0) return;
  console.log("\nFailed requests (counted in the tables' failed columns, not in req/s or latency):\n");
  for (const line of failures) console.log(`- ${line}`);
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

function positive(raw: string, name: string, zeroOk = false): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !zeroOk))
    throw new Error(`${name} must be a positive number`);
  return n;
}

function wholeNumber(raw: string, name: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be whole numbers >= ${min}, got "${raw}"`);
  return n;
}

try {
  await main();
} finally {
  printFailures();
}
