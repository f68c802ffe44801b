// How fast the sessions sweeper expires sessions (issue 6): N sessions past their lifetime,
// swept by 1 or 2 sweepers sharing one store and one set of claims, as replicas would.
//   store: in memory (embedded mode) | MongoDB wire server (FerretDB 1.24 from the testkit, or MONGODB_URL)
// Run: npx tsx bench/sweeper-bench.ts [--sessions N]
// Each expiry is a claim insert, a re-read, a compare-and-set with its outbox event, and a claim
// delete; no acquirer call (no payment was started). The relay is not running: publishing is
// measured elsewhere.
import { parseArgs } from "node:util";
import { ManualClock } from "@gateway/platform";
import { type LocalServer, startFerretDb } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { createMemorySessionRepository } from "../services/sessions/src/adapters/memory/in-memory-session-repository.js";
import { InMemorySweepLocks } from "../services/sessions/src/adapters/memory/in-memory-sweep-locks.js";
import { createMongoSessionRepository } from "../services/sessions/src/adapters/mongo/mongo-session-repository.js";
import { createMongoSweepLocks } from "../services/sessions/src/adapters/mongo/mongo-sweep-locks.js";
import type { SessionRepository, SweepLocks } from "../services/sessions/src/app/ports.js";
import { createSessionSweeper } from "../services/sessions/src/app/session-sweeper.js";
import { LIFETIMES, newScope, sessionFixture } from "../services/sessions/test/support/fixtures.js";
import { offlinePaymentDeps } from "../services/sessions/test/support/payment-fakes.js";

const { values } = parseArgs({ options: { sessions: { type: "string", default: "300" } } });
const SESSIONS = Number.parseInt(values.sessions, 10);
if (!Number.isInteger(SESSIONS) || SESSIONS < 1)
  throw new Error("--sessions must be a positive whole number");

async function run(
  store: string,
  replicas: number,
  open: () => Promise<{ repo: SessionRepository; locks: SweepLocks }>,
): Promise<void> {
  const { repo, locks } = await open();
  const start = new Date(Date.UTC(2026, 0, 1));
  for (let i = 0; i < SESSIONS; i++) {
    const session = sessionFixture(newScope(), {}, start);
    delete session.linkExpiryDueAt; // the expiry alone
    await repo.insert(session);
  }
  const clock = new ManualClock(start.getTime() + LIFETIMES.sessionLifetimeMs);
  const deps = offlinePaymentDeps(repo, clock);
  const sweepers = Array.from({ length: replicas }, () => createSessionSweeper({ deps, locks }));
  const began = performance.now();
  let swept = 0;
  // Rounds until one sweeps nothing: the sweepers' own looks decide what is due. A full look
  // here after every round would read every document on FerretDB (the look for documents
  // without a next due time is not pushed down there), and time the bench, not the sweeper.
  for (;;) {
    const round = (await Promise.all(sweepers.map((s) => s.runOnce()))).reduce((a, b) => a + b, 0);
    if (round === 0) break;
    swept += round;
  }
  const ms = performance.now() - began;
  const left = await repo.findDue(clock.now(), 1);
  if (left.length > 0 || swept !== SESSIONS)
    throw new Error(
      `${store}: swept ${swept} of ${SESSIONS}, ${left.length ? "some still due" : "none due"}`,
    );
  console.log(
    `| ${store} | ${replicas} | ${swept} | ${(ms / 1000).toFixed(2)} | ${((swept / ms) * 1000).toFixed(0)} | ${(ms / swept).toFixed(2)} |`,
  );
}

let ferret: LocalServer | undefined;
const mongoUrl = process.env.MONGODB_URL ?? (ferret = await startFerretDb()).url;
const client = await MongoClient.connect(mongoUrl);
try {
  console.log(
    `${SESSIONS} sessions past their lifetime; store at ${process.env.MONGODB_URL ? "MONGODB_URL" : "a local FerretDB 1.24"}\n`,
  );
  console.log("| store | sweepers | expired | seconds | sessions/s | ms per session |");
  console.log("|---|---|---|---|---|---|");
  for (const replicas of [1, 2]) {
    await run("in memory", replicas, async () => ({
      repo: createMemorySessionRepository(),
      locks: new InMemorySweepLocks(),
    }));
  }
  for (const replicas of [1, 2]) {
    const db = client.db(`bench_sweeper_${Date.now().toString(36)}_${replicas}`);
    try {
      await run("MongoDB wire (FerretDB)", replicas, async () => ({
        repo: await createMongoSessionRepository(db),
        locks: await createMongoSweepLocks(db),
      }));
    } finally {
      await db.dropDatabase();
    }
  }
} finally {
  await client.close();
  await ferret?.stop();
}
