import { createTestDb, type TestDb } from "@gateway/testkit";
import { afterAll } from "vitest";
import { createMongoSweepLocks } from "../src/adapters/mongo/mongo-sweep-locks.js";
import { sweepLocksContract } from "./contracts/sweep-locks.contract.js";

let testDb: TestDb | undefined;

afterAll(async () => {
  await testDb?.drop();
});

sweepLocksContract("MongoDB wire server", async () => {
  testDb ??= await createTestDb("sessions_sweep_locks");
  return createMongoSweepLocks(testDb.db);
});
