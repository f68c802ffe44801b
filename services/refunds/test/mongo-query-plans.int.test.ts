import { createTestDb, queryPlanProblems, recordQueries, type TestDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createMongoRefundRepository } from "../src/adapters/mongo/mongo-refund-repository.js";
import { refundRepositoryContract } from "./contracts/refund-repository.contract.js";

// Every query the refund repository sends while its contract runs is recorded, then explained:
// pushed down on FerretDB, no collection scan on MongoDB, finds bounded (see the sessions twin).
let testDb: TestDb | undefined;
let recorder: ReturnType<typeof recordQueries> | undefined;

async function db() {
  if (!testDb) {
    testDb = await createTestDb("refunds_plans", { monitorCommands: true });
    recorder = recordQueries(testDb.client);
  }
  return testDb.db;
}

afterAll(async () => {
  recorder?.stop();
  await testDb?.drop();
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
