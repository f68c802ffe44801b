// Latency the edge's rate limiting adds per request (docs/api/limits.md#rate-limits), measured on the real edge
// app with the real sessions service and an in-memory fake of accounts, so the limiter is the only variable:
//   limits off | on, in-memory store (embedded mode) | on, NATS JetStream KV store (distributed)
// Run: npx tsx bench/rate-limiter-bench.ts [--requests N per scenario] [--seconds S per scenario, a bound on the run]
// Requests go through fastify's inject (no sockets): what is measured is the edge's own work.
// NATS is a local nats-server started by the testkit (loopback, JetStream on disk).
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createEdgeApp, createEdgeRateLimiting, type EdgeRateLimiting } from "@gateway/edge";
import { createLogger, errorDetailInterceptor, systemClock } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import { parseRateLimitConfig, type RateLimitPolicy } from "@gateway/rate-limiter";
import { startNatsServer } from "@gateway/testkit";
import type { FastifyInstance } from "fastify";
import { FakeAccountsService } from "../services/edge/test/fakes/fake-accounts-service.js";
import { SessionsUnderTest } from "../services/edge/test/fakes/sessions-under-test.js";

const { values } = parseArgs({
  options: { requests: { type: "string", default: "5000" }, seconds: { type: "string", default: "15" } },
});
const REQUESTS = positiveInt(values.requests, "--requests");
const MAX_MS_PER_SCENARIO = positiveInt(values.seconds, "--seconds") * 1000;
const WARMUP = Math.min(500, REQUESTS);
/** Measurements rotate through the scenarios in this many rounds. */
const ROUNDS = 20;

// Limits far above what one process can send: every request is admitted and pays the full
// check (store read and compare-and-set), the case a merchant within its limits sees.
const NEVER_REACHED = parseRateLimitConfig(
  ["account", "create", "refund"].flatMap((b) => [`test.${b}=1000000`, `live.${b}=1000000`]).join(","),
) as RateLimitPolicy;
// The default limits (docs/api/limits.md), to measure answers over the limit (429, decided from the replica's last seen state).
const SPEC = parseRateLimitConfig(undefined) as RateLimitPolicy;

interface Scenario {
  name: string;
  limits: "off" | "memory" | "nats-kv";
  policy: RateLimitPolicy | "off";
  request: "get" | "create";
  expectStatus: number;
}

interface Result {
  scenario: Scenario;
  count: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  perSecond: number;
}

const scenarios: Scenario[] = [
  { name: "GET session, limits off", limits: "off", policy: "off", request: "get", expectStatus: 200 },
  {
    name: "GET session, in-memory store",
    limits: "memory",
    policy: NEVER_REACHED,
    request: "get",
    expectStatus: 200,
  },
  {
    name: "GET session, NATS KV store",
    limits: "nats-kv",
    policy: NEVER_REACHED,
    request: "get",
    expectStatus: 200,
  },
  { name: "POST create, limits off", limits: "off", policy: "off", request: "create", expectStatus: 201 },
  {
    name: "POST create, in-memory store",
    limits: "memory",
    policy: NEVER_REACHED,
    request: "create",
    expectStatus: 201,
  },
  {
    name: "POST create, NATS KV store",
    limits: "nats-kv",
    policy: NEVER_REACHED,
    request: "create",
    expectStatus: 201,
  },
  {
    name: "GET over the limit (429), NATS KV",
    limits: "nats-kv",
    policy: SPEC,
    request: "get",
    expectStatus: 429,
  },
];

interface Prepared {
  scenario: Scenario;
  send(): Promise<{ statusCode: number; body: string }>;
  samples: number[];
  measuredMs: number;
  close(): Promise<void>;
}

/**
 * Every scenario's app is built first, then requests are measured in rounds that rotate through
 * the scenarios, so JIT warm-up, GC and machine noise fall on every row alike.
 */
async function main(): Promise<void> {
  const nats = await startNatsServer();
  const prepared: Prepared[] = [];
  try {
    for (const scenario of scenarios) prepared.push(await prepare(scenario, nats.url));
    for (const p of prepared) for (let i = 0; i < WARMUP; i++) await measureOne(p, false);
    const perRound = Math.max(1, Math.ceil(REQUESTS / ROUNDS));
    const deadline = performance.now() + MAX_MS_PER_SCENARIO * scenarios.length;
    for (let round = 0; round < ROUNDS && performance.now() < deadline; round++) {
      for (const p of prepared)
        for (let i = 0; i < perRound && p.samples.length < REQUESTS; i++) await measureOne(p, true);
    }
  } finally {
    for (const p of prepared) await p.close();
    await nats.stop();
  }
  printTable(prepared.map((p) => summarize(p.scenario, p.samples, p.measuredMs)));
}

async function measureOne(p: Prepared, record: boolean): Promise<void> {
  const t0 = process.hrtime.bigint();
  const res = await p.send();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const expected = p.scenario.expectStatus;
  if (res.statusCode === expected) {
    if (record) {
      p.samples.push(ms);
      p.measuredMs += ms;
    }
    return;
  }
  // Over the limit the budget still refills (10/s): those few admitted requests are not what that row measures.
  if (expected === 429 && res.statusCode === 200) return;
  throw new Error(
    `${p.scenario.name}: expected ${expected}, got ${res.statusCode}: ${res.body.slice(0, 200)}`,
  );
}

async function prepare(scenario: Scenario, natsUrl: string): Promise<Prepared> {
  const logger = createLogger({ service: "bench", level: "silent" });
  const accounts = new FakeAccountsService(systemClock);
  const sessions = new SessionsUnderTest(systemClock, logger);
  const rateLimiting: EdgeRateLimiting = await createEdgeRateLimiting({
    policy: scenario.policy,
    natsUrl: scenario.limits === "nats-kv" ? natsUrl : undefined,
    logger,
  });
  const app = edgeApp(accounts, sessions, rateLimiting, logger);
  const close = async () => {
    await app.close();
    await rateLimiting.close();
  };
  try {
    const { secret } = await accounts.issueKey();
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const created = await app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers,
      payload: body("seed"),
    });
    const sessionId = created.json().id as string | undefined;
    if (created.statusCode !== 201 || sessionId === undefined)
      throw new Error(`seeding a session answered ${created.statusCode}`);

    let sequence = 0;
    const send = () =>
      scenario.request === "get"
        ? app.inject({ method: "GET", url: `/api/v1/gateway/sessions/${sessionId}/`, headers })
        : app.inject({
            method: "POST",
            url: "/api/v1/gateway/sessions/",
            headers,
            payload: body(`r-${++sequence}`),
          });
    // Over-the-limit scenario: spend the budget first, so the measured requests are refused.
    if (scenario.expectStatus === 429) while ((await send()).statusCode !== 429);
    return { scenario, send, samples: [], measuredMs: 0, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function edgeApp(
  accounts: FakeAccountsService,
  sessions: SessionsUnderTest,
  rateLimiting: EdgeRateLimiting,
  logger: ReturnType<typeof createLogger>,
): FastifyInstance {
  const accountsTransport = createRouterTransport((router) => router.service(AccountsService, accounts), {
    router: { interceptors: [errorDetailInterceptor("accounts.gateway")] },
  });
  return createEdgeApp({
    accounts: createClient(AccountsService, accountsTransport),
    sessions: createClient(SessionService, sessions.transport()),
    logger,
    clock: systemClock,
    rateLimiter: rateLimiting.limiter,
    config: { errorsUrl: "http://127.0.0.1/errors", maxBodyBytes: 65_536, authCacheTtlMs: 60_000 },
  });
}

function body(reference: string): string {
  return JSON.stringify({ merchant_reference: reference, amount: "10.000", currency: "TND" });
}

/** perSecond: sequential requests per second of measured time (the inverse of the mean latency). */
function summarize(scenario: Scenario, samples: number[], elapsedMs: number): Result {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  return {
    scenario,
    count: samples.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    mean,
    perSecond: (samples.length * 1000) / elapsedMs,
  };
}

function printTable(results: Result[]): void {
  // A 429 never reaches the sessions service: comparing it with an admitted GET would mislead.
  const baseline = (r: Result) =>
    r.scenario.expectStatus === 429
      ? undefined
      : results.find((b) => b.scenario.request === r.scenario.request && b.scenario.limits === "off");
  const ms = (x: number) => x.toFixed(3);
  const delta = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
  const rows = results.map((r) => {
    const base = baseline(r);
    return [
      r.scenario.name,
      String(r.count),
      ms(r.p50),
      ms(r.p90),
      ms(r.p99),
      ms(r.mean),
      r.perSecond.toFixed(0),
      base && base !== r ? delta(r.p50 - base.p50) : "",
      base && base !== r ? delta(r.p90 - base.p90) : "",
      base && base !== r ? delta(r.p99 - base.p99) : "",
    ];
  });
  const header = [
    "scenario",
    "requests",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "mean ms",
    "req/s",
    "added p50 ms",
    "added p90 ms",
    "added p99 ms",
  ];
  process.stdout.write(
    `\nnode ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? "unknown"}), one request at a time via inject\n\n`,
  );
  process.stdout.write(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(" | ")} |\n`);
}

function positiveInt(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number >= 1, got ${raw}`);
  return n;
}

main().catch((err: unknown) => {
  process.stderr.write(
    `benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
