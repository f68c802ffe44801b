import { randomBytes } from "node:crypto";
import { createSecretBox, newId, SecretUnreadableError, systemClock } from "@gateway/platform";
import { createTestDb, type TestDb } from "@gateway/testkit";
import { generateWebhookSecret } from "@gateway/webhook-signature";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryEndpointChangeHub } from "../src/adapters/memory/in-memory-endpoint-change-notices.js";
import {
  createMongoDeliveryRepository,
  DELIVERIES_COLLECTION,
  LEASES_COLLECTION,
} from "../src/adapters/mongo/mongo-delivery-repository.js";
import {
  createMongoEndpointRepository,
  ENDPOINTS_COLLECTION,
} from "../src/adapters/mongo/mongo-endpoint-repository.js";
import { createMongoWebhookEventRepository } from "../src/adapters/mongo/mongo-event-repository.js";
import { rememberEndpoints } from "../src/app/remembered-endpoints.js";
import { deliveryRepositoryContract } from "./contracts/delivery-repository.contract.js";
import { endpointRepositoryContract } from "./contracts/endpoint-repository.contract.js";
import { eventRepositoryContract } from "./contracts/event-repository.contract.js";
import { newScope } from "./support/fixtures.js";

const box = createSecretBox(randomBytes(32));
let shared: TestDb | undefined;

async function sharedDb() {
  shared ??= await createTestDb("webhooks_repo");
  return shared.db;
}

afterAll(async () => {
  await shared?.drop();
});

// The work queue is global to the collection: each delivery test gets a database of its own.
deliveryRepositoryContract("MongoDB wire server", async () => {
  const testDb = await createTestDb("webhooks_dlv");
  return { repo: await createMongoDeliveryRepository(testDb.db), close: () => testDb.drop() };
});
eventRepositoryContract("MongoDB wire server", async () =>
  createMongoWebhookEventRepository(await sharedDb()),
);
endpointRepositoryContract("MongoDB wire server", async () =>
  createMongoEndpointRepository(await sharedDb(), box),
);
endpointRepositoryContract("MongoDB wire server, remembered", async () =>
  rememberEndpoints(await createMongoEndpointRepository(await sharedDb(), box), {
    clock: systemClock,
    notices: new InMemoryEndpointChangeHub().replica(),
  }),
);

describe("Mongo webhooks storage", () => {
  it("when the repositories start twice, then creating the indexes again is harmless", async () => {
    const db = await sharedDb();
    await createMongoDeliveryRepository(db);
    await createMongoDeliveryRepository(db);
    const indexes = await db.collection(DELIVERIES_COLLECTION).listIndexes().toArray();
    const unique = Object.fromEntries(indexes.map((i) => [i.name as string, i.unique === true]));
    expect(unique).toMatchObject({
      id_unique: true,
      event_attempt_unique: true,
      due_pending: false,
      list_newest_first: false,
      list_by_session: false,
    });
  });

  it("when a dispatcher died between winning an attempt and recording its lease, then the attempt is claimed once that lease would have run out", async () => {
    const testDb = await createTestDb("webhooks_stale");
    try {
      const repo = await createMongoDeliveryRepository(testDb.db);
      const scope = newScope();
      const id = newId("whd");
      const t0 = new Date(Date.UTC(2026, 0, 1));
      await repo.insert({
        id,
        scope,
        sessionId: "ps_1",
        event: "session.failed",
        eventId: newId("evt"),
        url: "https://x.example/h",
        attemptNumber: 1,
        chainAttempt: 1,
        trigger: "initial",
        status: "PENDING",
        createdAt: t0,
        dueAt: t0,
      });
      // The dead winner's ticket: its lease would have lasted until t0 + 40 s.
      await testDb.db.collection(LEASES_COLLECTION).insertOne({
        key: `${id}|free`,
        deliveryId: id,
        token: "dead",
        until: new Date(t0.getTime() + 40_000),
        createdAt: t0,
      });
      expect(
        await repo.claimNextDue(new Date(t0.getTime() + 39_000), new Date(t0.getTime() + 79_000), "early"),
      ).toBeUndefined();
      const claimed = await repo.claimNextDue(
        new Date(t0.getTime() + 40_000),
        new Date(t0.getTime() + 80_000),
        "late",
      );
      expect(claimed?.id).toBe(id);
      expect(claimed?.claim?.token).toBe("late");
      expect(
        await repo.complete(id, "late", {
          status: "SUCCEEDED",
          url: "https://x.example/h",
          completedAt: new Date(t0.getTime() + 41_000),
        }),
      ).toBe(true);
      expect(await testDb.db.collection(LEASES_COLLECTION).countDocuments({ deliveryId: id })).toBe(0);
    } finally {
      await testDb.drop();
    }
  });

  it("when an endpoint secret is stored, then the document holds it encrypted and another key cannot read it", async () => {
    const db = await sharedDb();
    const repo = await createMongoEndpointRepository(db, box);
    const scope = newScope();
    const secret = generateWebhookSecret();
    await repo.setUrl(scope, "https://shop.example.tn/hooks", secret, new Date());
    await repo.rotateSecret(scope, generateWebhookSecret(), new Date(Date.now() + 60_000), new Date());
    const raw = await db.collection(ENDPOINTS_COLLECTION).findOne({ merchantId: scope.merchantId });
    const text = JSON.stringify(raw);
    expect(text).not.toContain("whsec_");
    expect(text).not.toContain(secret.slice(6));
    expect(raw?.secret).toMatchObject({
      keyId: box.keyId,
      iv: expect.any(String),
      tag: expect.any(String),
      ciphertext: expect.any(String),
    });

    const stranger = await createMongoEndpointRepository(db, createSecretBox(randomBytes(32)));
    await expect(stranger.find(scope)).rejects.toBeInstanceOf(SecretUnreadableError);
  });

  it("when a sealed secret is copied onto another merchant's endpoint, then it does not open there", async () => {
    const db = await sharedDb();
    const repo = await createMongoEndpointRepository(db, box);
    const victim = newScope();
    const attacker = newScope();
    await repo.setUrl(victim, "https://victim.example/hooks", generateWebhookSecret(), new Date());
    await repo.setUrl(attacker, "https://attacker.example/hooks", generateWebhookSecret(), new Date());
    const victimDoc = await db.collection(ENDPOINTS_COLLECTION).findOne({ merchantId: victim.merchantId });
    await db
      .collection(ENDPOINTS_COLLECTION)
      .updateOne({ merchantId: attacker.merchantId }, { $set: { secret: victimDoc?.secret } });
    await expect(repo.find(attacker)).rejects.toBeInstanceOf(SecretUnreadableError);
  });
});
