import { createTestDb, type TestDb } from "@gateway/testkit";
import { afterAll } from "vitest";
import { createMongoPaidSessionStore } from "../src/adapters/mongo/mongo-paid-session-store.js";
import { paidSessionStoreContract } from "./contracts/paid-session-store.contract.js";

let testDb: TestDb | undefined;

async function db() {
  testDb ??= await createTestDb("refunds_paid");
  return testDb.db;
}

afterAll(async () => {
  await testDb?.drop();
});

paidSessionStoreContract("MongoDB wire server", async () => createMongoPaidSessionStore(await db()));
