import { createTestDb, type TestDb } from "@gateway/testkit";
import { Long } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMongoSessionRepository,
  SESSIONS_COLLECTION,
} from "../src/adapters/mongo/mongo-session-repository.js";
import { requestFingerprint } from "../src/domain/request-fingerprint.js";
import { sessionRepositoryContract } from "./contracts/session-repository.contract.js";
import { newScope, sessionFixture } from "./support/fixtures.js";

let testDb: TestDb | undefined;

async function db() {
  testDb ??= await createTestDb("sessions_repo");
  return testDb.db;
}

afterAll(async () => {
  await testDb?.drop();
});

sessionRepositoryContract(
  "MongoDB wire server",
  async () => createMongoSessionRepository(await db()),
  async (sessionId) => {
    const raw = await (await db()).collection(SESSIONS_COLLECTION).findOne({ id: sessionId });
    return ((raw?.outbox ?? []) as Array<{ eventId: string; publishedAt: Date | null }>).map((e) => ({
      eventId: e.eventId,
      published: e.publishedAt !== null,
    }));
  },
);

describe("MongoSessionRepository storage", () => {
  it("when the repository starts twice, then creating the indexes again is harmless", async () => {
    await createMongoSessionRepository(await db());
    await createMongoSessionRepository(await db());
    const indexes = await (await db()).collection(SESSIONS_COLLECTION).listIndexes().toArray();
    const unique = Object.fromEntries(indexes.map((i) => [i.name as string, i.unique === true]));
    expect(unique).toMatchObject({
      id_unique: true,
      merchant_reference_unique: true,
      order_number_unique: true,
      checkout_token_unique: true,
      list_newest_first: false,
      acquirer_order_ids: false,
      outbox_unpublished: false,
    });
    expect(unique).not.toHaveProperty("acquirer_order_id");
  });

  it("when a database an earlier version set up still has the attempts' order id index, then the start drops it", async () => {
    const sessions = (await db()).collection(SESSIONS_COLLECTION);
    await sessions.createIndex({ "attempts.acquirerOrderId": 1 }, { name: "acquirer_order_id" });

    await createMongoSessionRepository(await db());

    const names = (await sessions.listIndexes().toArray()).map((i) => String(i.name));
    expect(names).not.toContain("acquirer_order_id");
    expect(names).toContain("acquirer_order_ids");
  });

  it("when a session is stored, then amounts are BSON Int64 and the outbox is ready", async () => {
    const repo = await createMongoSessionRepository(await db());
    const scope = newScope();
    const session = sessionFixture(scope, {
      amount: "10.00",
      currency: "EUR",
      items: [{ name: "Mug", quantity: 1, unitPrice: "10.00" }],
    });
    await repo.insert(session);
    // Read with promoteLongs off: Int64 arrives as Long, anything else (Int32, double) would not.
    const raw = await (await db())
      .collection(SESSIONS_COLLECTION)
      .findOne({ id: session.id }, { promoteLongs: false });
    expect(raw?.amountMinor).toBeInstanceOf(Long);
    expect(raw?.original?.amountMinor).toBeInstanceOf(Long);
    expect(raw?.items?.[0]?.unitPriceMinor).toBeInstanceOf(Long);
    expect((raw!.amountMinor as Long).toBigInt()).toBe(session.amountMinor);
    const plain = await (await db()).collection(SESSIONS_COLLECTION).findOne({ id: session.id });
    expect(plain?.outbox).toEqual([]);
    expect(plain?.sequence).toBe(0);
    expect(plain?.outboxPending).toBe(0);
    expect(plain?.outboxUnpublished).toBe(false);
  });

  it("when a session is stored, then its document carries the create's fingerprint for the versions that still read it", async () => {
    const repo = await createMongoSessionRepository(await db());
    const session = sessionFixture(newScope(), {
      description: "Two books",
      metadataJson: '{"b":1.50,"a":1}',
    });
    await repo.insert(session);
    const plain = await (await db()).collection(SESSIONS_COLLECTION).findOne({ id: session.id });
    expect(plain?.requestFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(plain?.requestFingerprint).toBe(requestFingerprint(session));
    expect(await repo.findById(session.scope, session.id)).not.toHaveProperty("requestFingerprint");
  });

  it("when sessions were stored before the outbox flag, then the next start flags those with unpublished events for the relay", async () => {
    const legacyDb = await createTestDb("sessions_repo_outbox_flag");
    try {
      const repo = await createMongoSessionRepository(legacyDb.db);
      const scope = newScope();
      const waiting = sessionFixture(scope, { amount: "10.00", currency: "EUR" });
      const published = sessionFixture(scope, { amount: "12.00", currency: "EUR" });
      await repo.insert(waiting);
      await repo.insert(published);
      const event = {
        eventId: "evt_legacy",
        type: "session.succeeded",
        sequence: 1,
        occurredAt: new Date(),
        payload: "",
        headersJson: "{}",
      };
      const sessions = legacyDb.db.collection(SESSIONS_COLLECTION);
      await sessions.updateOne(
        { id: waiting.id },
        {
          $set: { outbox: [{ ...event, publishedAt: null }], outboxPending: 1 },
          $unset: { outboxUnpublished: "" },
        },
      );
      await sessions.updateOne({ id: published.id }, { $unset: { outboxUnpublished: "" } });
      expect(await repo.findPendingOutbox(10)).toEqual([]);

      const restarted = await createMongoSessionRepository(legacyDb.db);
      expect((await restarted.findPendingOutbox(10)).map((e) => [e.sessionId, e.eventId])).toEqual([
        [waiting.id, "evt_legacy"],
      ]);
      expect((await sessions.findOne({ id: published.id }))?.outboxUnpublished).toBe(false);
      await restarted.markOutboxPublished(waiting.id, "evt_legacy", new Date());
      expect(await sessions.findOne({ id: waiting.id })).toMatchObject({
        outboxPending: 0,
        outboxUnpublished: false,
      });
    } finally {
      await legacyDb.drop();
    }
  });
});

// Two repositories on two connections stand for two sessions replicas. FerretDB 1.24 writes a
// whole document back on update without isolation, so without the write lock both of these
// compare-and-sets could pass, and the later write would erase the earlier one.
describe("MongoSessionRepository across replicas", () => {
  it("when two replicas change one session from the same version at once, then exactly one wins and its change stays", async () => {
    const other = await createTestDb("sessions_repo_replica");
    try {
      const replicaA = await createMongoSessionRepository(await db());
      const replicaB = await createMongoSessionRepository(other.client.db((await db()).databaseName));
      for (let round = 0; round < 10; round++) {
        const scope = newScope();
        const session = sessionFixture(scope);
        await replicaA.insert(session);
        const [a, b] = await Promise.all([
          replicaA.updateIf(session, { status: "CANCELED" }),
          replicaB.updateIf(session, { status: "FAILED" }),
        ]);
        expect([a.updated, b.updated].filter(Boolean)).toHaveLength(1);
        const winner = a.updated ? "CANCELED" : "FAILED";
        const stored = await replicaA.findById(scope, session.id);
        expect(stored?.status).toBe(winner);
        expect(stored?.version).toBe(session.version + 1);
      }
    } finally {
      await other.drop();
    }
  });
});
