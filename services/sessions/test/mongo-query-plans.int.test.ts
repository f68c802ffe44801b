import { queryPlanProblems, recordQueries, startFerretDb, uniqueDbName, type LocalServer } from "@gateway/testkit";
import { MongoClient, type Db } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { createMongoSessionRepository, SESSIONS_COLLECTION } from "../src/adapters/mongo/mongo-session-repository.js";
import { createMongoSweepLocks } from "../src/adapters/mongo/mongo-sweep-locks.js";
import { sessionRepositoryContract } from "./contracts/session-repository.contract.js";

// Every query the session repository sends while its whole contract runs is recorded, then
// explained: on FerretDB it must be pushed down to the storage, on MongoDB it must not scan the
// collection; finds must be bounded by a limit. A new query shaped for no index fails here.
// Pushdown is judged on FerretDB over PostgreSQL, started here (the shared test server may run on
// SQLite, which pushes almost nothing down); PLAN_MONGODB_URL points the test at a real MongoDB.
let server: LocalServer | undefined;
let client: MongoClient | undefined;
let database: Db | undefined;
let recorder: ReturnType<typeof recordQueries> | undefined;

async function db(): Promise<Db> {
  if (!database) {
    const url = process.env.PLAN_MONGODB_URL ?? (server = await startFerretDb({ backend: "postgresql" })).url;
    client = await MongoClient.connect(url, { monitorCommands: true, retryWrites: false });
    recorder = recordQueries(client);
    database = client.db(uniqueDbName("sessions_plans"));
  }
  return database;
}

afterAll(async () => {
  recorder?.stop();
  await database?.dropDatabase();
  await client?.close();
  await server?.stop();
});

sessionRepositoryContract(
  "MongoDB wire server, queries recorded",
  async () => createMongoSessionRepository(await db()),
  async (sessionId) => {
    const raw = await (await db()).collection(SESSIONS_COLLECTION).findOne({ id: sessionId });
    return ((raw?.outbox ?? []) as Array<{ eventId: string; publishedAt: Date | null }>).map((e) => ({ eventId: e.eventId, published: e.publishedAt !== null }));
  },
);

/**
 * The one-off backfill of fields older documents lack (mongo-session-repository.ts) runs once per
 * start and finds nothing after the first: `$exists: false` cannot be pushed down, and need not.
 */
function isStartupBackfill(shape: string): boolean {
  return /^sessions (update|find) \{(linkExpiryScheduled|reconcileScheduled|checkoutTokens):\{\$exists:\?\}/.test(shape);
}

describe("query plans of the sessions service's Mongo repositories", () => {
  it("when the sweep locks are used, then their queries are recorded too", async () => {
    const locks = await createMongoSweepLocks(await db());
    const now = new Date();
    await locks.acquire("ses_plan", "a", new Date(now.getTime() - 1), new Date(now.getTime() - 2));
    // Held by "a" until a moment ago: "b" finds it ran out and takes it over (findOne, deleteOne).
    expect(await locks.acquire("ses_plan", "b", new Date(now.getTime() + 60_000), now)).toBe(true);
    await locks.release("ses_plan", "b");
  });

  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    const patterns = recorder!.patterns().filter((q) => !q.collection.startsWith("system."));
    // The contract touches every method: insert, the four lookups, list, updateIf, findDue, the outbox.
    expect(patterns.length).toBeGreaterThan(8);
    const failures: string[] = [];
    for (const pattern of patterns) {
      if (isStartupBackfill(pattern.shape)) continue;
      const problems = await queryPlanProblems(await db(), pattern);
      if (problems.length > 0) failures.push(`${pattern.shape}: ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  });
});
