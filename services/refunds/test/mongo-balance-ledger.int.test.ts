import { newId } from "@gateway/platform";
import { createTestDb, type TestDb } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMongoBalanceLedger,
  RESERVATIONS_COLLECTION,
} from "../src/adapters/mongo/mongo-balance-ledger.js";
import { amountToTake } from "../src/domain/refund-rules.js";
import { balanceLedgerContract } from "./contracts/balance-ledger.contract.js";

let testDb: TestDb | undefined;

async function db() {
  testDb ??= await createTestDb("refunds_ledger");
  return testDb.db;
}

afterAll(async () => {
  await testDb?.drop();
});

balanceLedgerContract("MongoDB wire server", async () => createMongoBalanceLedger(await db()));

describe("MongoBalanceLedger storage", () => {
  it("when the ledger starts twice, then its unique indexes exist once and starting again is harmless", async () => {
    await createMongoBalanceLedger(await db());
    await createMongoBalanceLedger(await db());
    const indexes = await (await db()).collection(RESERVATIONS_COLLECTION).listIndexes().toArray();
    const unique = Object.fromEntries(indexes.map((i) => [i.name as string, i.unique === true]));
    expect(unique).toMatchObject({ session_slot_unique: true, entry_key_unique: true });
  });
});

describe("MongoBalanceLedger across replicas", () => {
  it("when two replicas (separate connections) race 20 partial refunds, then the accepted ones never sum past the payment", async () => {
    const other = new MongoClient(process.env.MONGODB_URL ?? "mongodb://127.0.0.1:27017", {
      retryWrites: false,
    });
    await other.connect();
    try {
      const replicas = [
        await createMongoBalanceLedger(await db()),
        await createMongoBalanceLedger(other.db((await db()).databaseName)),
      ];
      const session = newId("ps");
      const paid = 5_000n;
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          replicas[i % 2]!.reserve(session, newId("re"), (refundedMinor) =>
            amountToTake(333n, { paidMinor: paid, refundedMinor }),
          ).catch((err: { reason?: string }) => err.reason),
        ),
      );
      const accepted = outcomes.filter((o): o is bigint => typeof o === "bigint");
      expect(outcomes.filter((o) => o === "REFUND_FAILED")).toHaveLength(20 - accepted.length);
      expect(accepted).toHaveLength(15); // 15 x 333 = 4 995 <= 5 000 < 16 x 333
      expect(await replicas[1]!.refundedMinor(session)).toBe(4_995n);
    } finally {
      await other.close();
    }
  });
});
