// One call between two gateway processes (issue 12): the edge's CreateSession call to the
// sessions service, with the bench's create request and a session as the answer
// (bench/support/service-call-messages.ts), against a server that answers at once, so that only
// the call itself is measured. Each variant has its own server process
// (bench/support/service-call-server.ts); this process is the client:
//   bare connect-node, HTTP/2 (the baseline): createConnectTransport, binary, no interceptors,
//     to connect-node alone;
//   gateway service call: serviceTransport (tracing, a service token per call, our own unary
//     client over node:http) to a server as every gateway service runs (standard interceptors,
//     the token checked);
//   gateway service call, Connect's transport: connectServiceTransport, the same calls through
//     Connect's own transport with the same pool and interceptors (what serviceTransport was);
//   bare connect-node, HTTP/1.1: the baseline over HTTP/1.1 with keep-alive.
// Per variant and round: --calls calls one at a time (p50, p90), then --calls × 5 calls from
// --concurrency callers (calls/s, and CPU µs per call on each side: this process's
// process.cpuUsage, the server's /proc time), then calls at --rate per second for
// --rate-seconds, started whether or not the last one answered, while this process's old
// generation is read every 20 ms: its growth per call is what the calls leave there for a major
// collection to clear. Rounds alternate the variants, so each sees the same machine; the table
// gives medians of the rounds, rates also as a ratio to the baseline.
// Run: npx tsx bench/service-call-bench.ts [--rounds 5] [--calls 3000] [--concurrency 16]
//   [--rate 400] [--rate-seconds 10]
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getHeapSpaceStatistics } from "node:v8";
import { type Client, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import {
  connectServiceTransport,
  generateServiceAuthKeys,
  parseServiceAuthKeys,
  serviceTransport,
} from "@gateway/platform";
import { SessionService } from "@gateway/proto";
import { freePort, type ManagedProcess, startProcess } from "@gateway/testkit";
import { percentile } from "./support/percentile.js";
import { groupCpuSeconds } from "./support/process-cpu.js";
import { createSessionRequest } from "./support/service-call-messages.js";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    calls: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "16" },
    rate: { type: "string", default: "400" },
    "rate-seconds": { type: "string", default: "10" },
  },
});
const ROUNDS = Number.parseInt(values.rounds, 10);
const CALLS = Number.parseInt(values.calls, 10);
const CONCURRENCY = Number.parseInt(values.concurrency, 10);
const RATE = Number.parseInt(values.rate, 10);
const RATE_SECONDS = Number(values["rate-seconds"]);
if (!(ROUNDS >= 1) || !(CALLS >= 1) || !(CONCURRENCY >= 1) || !(RATE >= 1))
  throw new Error("--rounds, --calls, --concurrency and --rate must be positive whole numbers");
if (!(RATE_SECONDS > 0)) throw new Error("--rate-seconds must be a positive number");

const SERVER_ENTRY = fileURLToPath(new URL("./support/service-call-server.ts", import.meta.url));
const keys = generateServiceAuthKeys();

interface Variant {
  label: string;
  serve: "bare-h2" | "bare-h1" | "gateway";
  transport(baseUrl: string): Transport;
}

const VARIANTS: readonly Variant[] = [
  {
    label: "bare connect-node, HTTP/2",
    serve: "bare-h2",
    transport: (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true }),
  },
  {
    label: "gateway service call",
    serve: "gateway",
    transport: (baseUrl) => serviceTransport(baseUrl, "sessions", parseServiceAuthKeys("edge")(keys.edge)),
  },
  {
    label: "gateway service call, Connect's transport",
    serve: "gateway",
    transport: (baseUrl) =>
      connectServiceTransport(baseUrl, "sessions", parseServiceAuthKeys("edge")(keys.edge)),
  },
  {
    label: "bare connect-node, HTTP/1.1",
    serve: "bare-h1",
    transport: (baseUrl) => createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true }),
  },
];

interface Round {
  p50: number;
  p90: number;
  perSecond: number;
  clientMicros: number;
  serverMicros: number;
  oldGenKbPerCall: number;
}

interface RunningServer {
  server: ManagedProcess;
  client: Client<typeof SessionService>;
}

const READY_WITHIN_MS = 30_000;

/** Starts the variant's server and waits until it answers its first call (bare servers have no probe). */
async function startServer(variant: Variant): Promise<RunningServer> {
  const port = await freePort();
  const server = await startProcess({
    name: `service-call-${variant.serve}`,
    entry: SERVER_ENTRY,
    env: { PORT: String(port), SERVE: variant.serve, GATEWAY_SERVICE_AUTH_KEYS: keys.sessions },
  });
  const client = createClient(SessionService, variant.transport(`http://127.0.0.1:${port}`));
  const deadline = performance.now() + READY_WITHIN_MS;
  for (;;) {
    try {
      await client.createSession(createSessionRequest);
      return { server, client };
    } catch (err) {
      if (performance.now() > deadline)
        throw new Error(`${variant.label}: no answer\n${server.logs()}`, { cause: err });
      await sleep(50);
    }
  }
}

const oldGenerationBytes = () =>
  getHeapSpaceStatistics().find((s) => s.space_name === "old_space")?.space_used_size ?? 0;

/**
 * KB by which this process's old generation grows per call, at RATE calls/s for RATE_SECONDS. Only
 * growth counts: a major collection's drop is not subtracted, so what it cleared is still seen.
 */
async function oldGenerationGrowthPerCall(client: Client<typeof SessionService>): Promise<number> {
  let grown = 0;
  let last = oldGenerationBytes();
  const probe = setInterval(() => {
    const now = oldGenerationBytes();
    if (now > last) grown += now - last;
    last = now;
  }, 20);
  // Answered calls leave the set at once: a list of every call would itself fill the old generation.
  const inFlight = new Set<Promise<unknown>>();
  const began = performance.now();
  let calls = 0;
  while (performance.now() - began < RATE_SECONDS * 1000) {
    const due = Math.floor(((performance.now() - began) / 1000) * RATE);
    for (; calls < due; calls++) {
      const call: Promise<unknown> = client
        .createSession(createSessionRequest)
        .finally(() => inFlight.delete(call));
      inFlight.add(call);
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  clearInterval(probe);
  return grown / calls / 1024;
}

async function measureRound(client: Client<typeof SessionService>, serverPid: number): Promise<Round> {
  for (let i = 0; i < Math.min(CALLS, 500); i++) await client.createSession(createSessionRequest);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const began = performance.now();
    await client.createSession(createSessionRequest);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);

  const total = CALLS * 5;
  let started = 0;
  const clientBefore = process.cpuUsage();
  const serverBefore = groupCpuSeconds(serverPid);
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (started < total) {
        started++;
        await client.createSession(createSessionRequest);
      }
    }),
  );
  const elapsedMs = performance.now() - began;
  const clientCpu = process.cpuUsage(clientBefore);
  const serverSeconds = groupCpuSeconds(serverPid) - serverBefore;
  const oldGenKbPerCall = await oldGenerationGrowthPerCall(client);
  return {
    oldGenKbPerCall,
    p50: percentile(times, 0.5),
    p90: percentile(times, 0.9),
    perSecond: (total / elapsedMs) * 1000,
    clientMicros: (clientCpu.user + clientCpu.system) / total,
    serverMicros: (serverSeconds * 1e6) / total,
  };
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

const running = await Promise.all(VARIANTS.map(startServer));
try {
  const rounds: Round[][] = VARIANTS.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, variant] of VARIANTS.entries()) {
      rounds[i]!.push(await measureRound(running[i]!.client, running[i]!.server.pid));
      console.log(`round ${r + 1}: ${variant.label}`);
    }
  }
  const baseline = median(rounds[0]!.map((x) => x.perSecond));
  console.log(
    `\nOne call between processes: ${ROUNDS} rounds, ${CALLS} calls one at a time, ${CALLS * 5} from ${CONCURRENCY} callers, ${RATE}/s for ${RATE_SECONDS} s, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; medians of the rounds\n`,
  );
  console.log(
    `| variant | p50 ms, one at a time | p90 ms, one at a time | calls/s, ${CONCURRENCY} callers | ÷ baseline | client CPU µs per call | server CPU µs per call | client old-generation growth KB per call at ${RATE}/s |`,
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [i, variant] of VARIANTS.entries()) {
    const rs = rounds[i]!;
    const rate = median(rs.map((x) => x.perSecond));
    console.log(
      `| ${variant.label} | ${median(rs.map((x) => x.p50)).toFixed(3)} | ${median(rs.map((x) => x.p90)).toFixed(3)} | ${rate.toFixed(0)} | ${(rate / baseline).toFixed(2)} | ${median(rs.map((x) => x.clientMicros)).toFixed(0)} | ${median(rs.map((x) => x.serverMicros)).toFixed(0)} | ${median(rs.map((x) => x.oldGenKbPerCall)).toFixed(2)} |`,
    );
  }
} finally {
  await Promise.all(running.map((r) => r.server.stop()));
}
