import { createTestDb, type TestDb } from "@gateway/testkit";
import { afterAll } from "vitest";
import { createMongoRefundRepository } from "../src/adapters/mongo/mongo-refund-repository.js";
import { refundRepositoryContract } from "./contracts/refund-repository.contract.js";

let testDb: TestDb | undefined;

async function db() {
  testDb ??= await createTestDb("refunds_repo");
  return testDb.db;
}

afterAll(async () => {
  await testDb?.drop();
});

refundRepositoryContract("MongoDB wire server", async () => createMongoRefundRepository(await db()));
