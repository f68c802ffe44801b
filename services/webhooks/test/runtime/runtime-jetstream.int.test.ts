import { randomBytes as keyBytes, randomBytes } from "node:crypto";
import {
  connectNats,
  createJetStreamEventBus,
  createSecretBox,
  ensureEventsStream,
  type NatsConnection,
} from "@gateway/platform";
import { createTestDb } from "@gateway/testkit";
import { afterAll, beforeAll } from "vitest";
import { createMongoWebhooksStores } from "../../src/adapters/mongo/create-mongo-webhooks-stores.js";
import { runtimeScenarios } from "./runtime-scenarios.js";

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222", "webhooks-runtime-test");
});
afterAll(async () => {
  await nc.drain();
});

// Distributed mode: JetStream (a stream and subject space per test) and the MongoDB wire server.
runtimeScenarios("JetStream and MongoDB", async () => {
  const tag = randomBytes(6).toString("hex");
  const stream = `TEST_WEBHOOKS_${tag}`;
  const subjectPrefix = `test.${tag}.gateway.events`;
  await ensureEventsStream(nc, { name: stream, subjects: [`test.${tag}.>`] });
  const bus = await createJetStreamEventBus({ nc, stream, retryOnErrorMs: 100, ackWaitMs: 5_000 });
  const testDb = await createTestDb("webhooks_rt");
  const stores = await createMongoWebhooksStores(testDb.db, createSecretBox(keyBytes(32)));
  return {
    bus,
    stores,
    subjectPrefix,
    durable: `webhooks_${tag}`,
    async close() {
      await bus.close();
      await nc.request(`$JS.API.STREAM.DELETE.${stream}`).catch(() => undefined);
      await testDb.drop();
    },
  };
});
