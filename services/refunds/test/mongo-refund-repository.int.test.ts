import { createTestDb, type TestDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMongoRefundRepository,
  REFUNDS_COLLECTION,
} from "../src/adapters/mongo/mongo-refund-repository.js";
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

describe("MongoRefundRepository storage", () => {
  it("when a database an earlier version set up still has the by-session index, then the start drops it and keeps the ordered one", async () => {
    const refunds = (await db()).collection(REFUNDS_COLLECTION);
    await refunds.createIndex({ merchantId: 1, livemode: 1, sessionId: 1 }, { name: "by_session" });

    await createMongoRefundRepository(await db());

    const names = (await refunds.listIndexes().toArray()).map((i) => String(i.name));
    expect(names).not.toContain("by_session");
    expect(names).toEqual(expect.arrayContaining(["id_unique", "by_session_created", "by_status_created"]));
  });
});
