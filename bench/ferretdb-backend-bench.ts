// Two FerretDB 1.24 set-ups side by side in one run (issue 12), both started by the testkit, the
// same session repository code, the same data:
//   --compare backends (default): on PostgreSQL 15 against on SQLite;
//   --compare index-mirror: on PostgreSQL with the testkit's GIN twin of each requested index
//     (packages/testkit/src/local-servers/containment-index-mirror.ts) against FerretDB as shipped.
// For each: start-up time, then with N stored sessions the per-operation latency of the
// sessions service's queries (median and p95 over --ops calls each).
// Run: npx tsx bench/ferretdb-backend-bench.ts [--documents N] [--ops M] [--compare backends|index-mirror]
import { parseArgs } from "node:util";
import { type FerretDbOptions, startFerretDb } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { createMongoSessionRepository } from "../services/sessions/src/adapters/mongo/mongo-session-repository.js";
import { toDocument } from "../services/sessions/src/adapters/mongo/session-document.js";
import type { SessionRepository } from "../services/sessions/src/app/ports.js";
import type { Session } from "../services/sessions/src/domain/session.js";
import { newScope, sessionFixture } from "../services/sessions/test/support/fixtures.js";

const { values } = parseArgs({
  options: {
    documents: { type: "string", default: "2000" },
    ops: { type: "string", default: "50" },
    compare: { type: "string", default: "backends" },
  },
});
const SETUPS: Record<string, [Setup, Setup]> = {
  backends: [
    { label: "PostgreSQL", options: { backend: "postgresql" } },
    { label: "SQLite", options: { backend: "sqlite" } },
  ],
  "index-mirror": [
    { label: "PostgreSQL, GIN twins", options: { backend: "postgresql" } },
    { label: "PostgreSQL as shipped", options: { backend: "postgresql", mirrorIndexes: false } },
  ],
};
interface Setup {
  label: string;
  options: FerretDbOptions;
}
const setups = SETUPS[values.compare];
if (!setups) throw new Error(`--compare must be one of ${Object.keys(SETUPS).join(", ")}`);
const DOCUMENTS = Number.parseInt(values.documents, 10);
const OPS = Number.parseInt(values.ops, 10);
if (!(DOCUMENTS >= 1) || !(OPS >= 1)) throw new Error("--documents and --ops must be positive whole numbers");

type Timings = Record<string, number[]>;

async function measure(setup: Setup): Promise<{ startMs: number; timings: Timings }> {
  const began = performance.now();
  const server = await startFerretDb(setup.options);
  const startMs = performance.now() - began;
  const client = await MongoClient.connect(server.url);
  const timings: Timings = {};
  const time = async (name: string, op: () => Promise<unknown>): Promise<void> => {
    const t0 = performance.now();
    await op();
    (timings[name] ??= []).push(performance.now() - t0);
  };
  try {
    const db = client.db("bench_backend");
    const repo: SessionRepository = await createMongoSessionRepository(db);
    const sessions: Session[] = [];
    const start = new Date(Date.UTC(2026, 0, 1));
    for (let i = 0; i < DOCUMENTS; i++) sessions.push(sessionFixture(newScope(), {}, start));
    // Preload in batches (not timed): the stored data every measured query runs against.
    const raw = db.collection("sessions", { useBigInt64: true });
    // Order numbers are numbered here: the fixture's random ones collide at 100,000 sessions.
    for (let i = 0; i < sessions.length; i += 500)
      await raw.insertMany(
        sessions
          .slice(i, i + 500)
          .map((s, j) => ({ ...toDocument(s), orderNumber: `BB-${i + j}` })) as never[],
      );
    for (let i = 0; i < OPS; i++) {
      const probe = sessions[(i * 7919) % sessions.length]!;
      await time("insertOne (create)", () => repo.insert(sessionFixture(newScope(), {}, start)));
      await time("find by (merchant, mode, reference)", () =>
        repo.findByReference(probe.scope, probe.merchantReference),
      );
      await time("find by (merchant, mode, id)", () => repo.findById(probe.scope, probe.id));
      await time("find by checkout token", () => repo.findByCheckoutToken(probe.checkoutLinks[0]!.token));
      const current = (await repo.findById(probe.scope, probe.id))!;
      await time("conditional update (compare-and-set)", () =>
        repo.updateIf(current, { updatedAt: new Date(start.getTime() + i) }),
      );
      await time("list newest first, 20", () => repo.list(probe.scope, {}, { limit: 20 }));
      await time("findDue (sweeper look by dates)", () => repo.findDue(start, 50));
      await time("findPendingOutbox (relay look)", () => repo.findPendingOutbox(100));
      // The same looks as main shaped them (before issue 12), on the same data: the ratio between
      // these rows and the ones above is what reshaping the queries bought.
      const tokenDoc = { "checkoutLinks.token": probe.checkoutLinks[0]!.token };
      await time("main: find by checkout token (path into array)", () => raw.findOne(tokenDoc));
      await time("main: findDue (status $in, two bare date ranges)", () =>
        Promise.all([
          raw
            .find({ status: { $in: ["CREATED", "PENDING", "PROCESSING"] }, expiresAt: { $lte: start } })
            .sort({ expiresAt: 1 })
            .limit(50)
            .toArray(),
          raw
            .find({ linkExpiryDueAt: { $lte: start } })
            .sort({ linkExpiryDueAt: 1 })
            .limit(50)
            .toArray(),
          raw
            .find({ reconcileAt: { $lte: start } })
            .sort({ reconcileAt: 1 })
            .limit(50)
            .toArray(),
        ]),
      );
      await time("main: relay look (outboxPending $gt 0)", () =>
        raw
          .find({ outboxPending: { $gt: 0 } })
          .sort({ updatedAt: 1 })
          .limit(100)
          .toArray(),
      );
    }
  } finally {
    await client.close();
    await server.stop();
  }
  return { startMs, timings };
}

const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

// One after the other (a 2-core machine), in one run; the order alternates nothing, so run twice
// and compare when the machine is busy.
const [first, second] = setups;
const a = await measure(first);
const b = await measure(second);
console.log(`${DOCUMENTS} stored sessions, ${OPS} calls per operation; ms (median / p95)\n`);
console.log(`| operation | ${first.label} | ${second.label} | ${second.label} ÷ ${first.label} (median) |`);
console.log("|---|---|---|---|");
console.log(
  `| start (server ready) | ${a.startMs.toFixed(0)} | ${b.startMs.toFixed(0)} | ${(b.startMs / a.startMs).toFixed(2)} |`,
);
for (const name of Object.keys(a.timings)) {
  const x = a.timings[name]!;
  const y = b.timings[name]!;
  const cell = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;
  console.log(`| ${name} | ${cell(x)} | ${cell(y)} | ${(quantile(y, 0.5) / quantile(x, 0.5)).toFixed(2)} |`);
}
