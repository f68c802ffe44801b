// Embedded mode's memory under a stream of sessions (issue 18): two `npm start` processes side
// by side, the same short session lifetime and the same create load, one with the default-like
// unbounded-in-practice retention (baseline, as before the retention existed) and one with a short
// GATEWAY_MEMORY_RETENTION. Reports RSS at start and after every batch, and the ratio.
// Run: npx tsx bench/embedded-memory-bench.ts [--sessions N] [--concurrency C]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { embeddedLaunch } from "@gateway/launcher";
import { freePort, type ManagedProcess, startProcess } from "@gateway/testkit";

const { values } = parseArgs({
  options: { sessions: { type: "string", default: "10000" }, concurrency: { type: "string", default: "8" } },
});
const SESSIONS = Number.parseInt(values.sessions, 10);
const CONCURRENCY = Number.parseInt(values.concurrency, 10);
const BATCH = 1_000;
const KEY = "sk_test_MemoryBench0001AbcdefghijklmnopqrstuvwxyzABC";

interface Gateway {
  label: string;
  url: string;
  proc: ManagedProcess;
}

async function start(label: string, retention: string): Promise<Gateway> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = await startProcess({
    name: label,
    ...embeddedLaunch,
    env: {
      PORT: String(port),
      GATEWAY_DEMO_TEST_KEY: KEY,
      GATEWAY_RATE_LIMITS: "off",
      LOG_LEVEL: "warn",
      GATEWAY_SESSION_LIFETIME: "2s",
      GATEWAY_WEBHOOK_RETRY_SCHEDULE: "none",
      GATEWAY_WEBHOOK_TIMEOUT: "1s",
      GATEWAY_MEMORY_RETENTION: retention,
    },
    readyUrl: `${url}/healthz`,
    timeoutMs: 60_000,
  });
  return { label, url, proc };
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Number.parseInt(line.replace(/\D+/g, ""), 10) / 1024;
}

/** The V8 heap in use, from the gateway's own /metrics (prom-client's default metrics). */
async function heapUsedMiB(gateway: Gateway): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("nodejs_heap_size_used_bytes "));
  if (!line) throw new Error(`${gateway.label}: no nodejs_heap_size_used_bytes in /metrics`);
  return Number(line.split(" ")[1]) / 1024 / 1024;
}

async function create(gateway: Gateway, count: number, offset: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = offset + next++;
      const response = await fetch(`${gateway.url}/api/v1/gateway/sessions/`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ merchant_reference: `bench-${i}`, amount: "10.000" }),
      });
      if (response.status !== 201)
        throw new Error(`${gateway.label}: HTTP ${response.status} ${await response.text()}`);
      await response.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const baseline = await start("baseline (retention 1000h)", "1000h");
const bounded = await start("bounded (retention 3s)", "3s");
try {
  // Rows are printed as they come: a slow machine still gives the first ones.
  console.log(
    "| sessions created | baseline RSS MiB | bounded RSS MiB | RSS bounded / baseline | baseline heap used MiB | bounded heap used MiB | heap bounded / baseline |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const row = async (created: number) => {
    const [rssA, rssB] = [rssMiB(baseline.proc.pid), rssMiB(bounded.proc.pid)];
    const [heapA, heapB] = [await heapUsedMiB(baseline), await heapUsedMiB(bounded)];
    const cells = [
      created,
      rssA.toFixed(0),
      rssB.toFixed(0),
      (rssB / rssA).toFixed(2),
      heapA.toFixed(0),
      heapB.toFixed(0),
      (heapB / heapA).toFixed(2),
    ];
    console.log(`| ${cells.join(" | ")} |`);
  };
  await row(0);
  for (let done = 0; done < SESSIONS; done += BATCH) {
    const n = Math.min(BATCH, SESSIONS - done);
    // Side by side: the same batch to both, one after the other, so machine load hits both alike.
    await create(baseline, n, done);
    await create(bounded, n, done);
    await row(done + n);
  }
} finally {
  await baseline.proc.stop();
  await bounded.proc.stop();
}
