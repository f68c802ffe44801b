import { queryPlanProblems, recordQueries, startFerretDb, uniqueDbName, type LocalServer } from "@gateway/testkit";
import { MongoClient, type Db } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { createMongoRefundRepository } from "../src/adapters/mongo/mongo-refund-repository.js";
import { refundRepositoryContract } from "./contracts/refund-repository.contract.js";

// Every query the refund repository sends while its contract runs is recorded, then explained:
// pushed down on FerretDB, no collection scan on MongoDB, finds bounded (see the sessions twin).
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
    database = client.db(uniqueDbName("refunds_plans"));
  }
  return database;
}

afterAll(async () => {
  recorder?.stop();
  await database?.dropDatabase();
  await client?.close();
  await server?.stop();
});

refundRepositoryContract("MongoDB wire server, queries recorded", async () => createMongoRefundRepository(await db()));

describe("query plans of the refunds service's Mongo repository", () => {
  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    const patterns = recorder!.patterns();
    expect(patterns.length).toBeGreaterThan(2);
    const failures: string[] = [];
    for (const pattern of patterns) {
      const problems = await queryPlanProblems(await db(), pattern);
      if (problems.length > 0) failures.push(`${pattern.shape}: ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  });
});
