import { randomBytes } from "node:crypto";
import {
  connectNats,
  createJetStreamEventBus,
  ensureEventsStream,
  type NatsConnection,
} from "@gateway/platform";
import { createTestDb } from "@gateway/testkit";
import { afterAll, beforeAll } from "vitest";
import { createMongoPaidSessionStore } from "../../src/adapters/mongo/mongo-paid-session-store.js";
import { createMongoRefundRepository } from "../../src/adapters/mongo/mongo-refund-repository.js";
import { runtimeScenarios } from "./runtime-scenarios.js";

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222", "refunds-runtime-test");
});
afterAll(async () => {
  await nc.drain();
});

// Distributed mode: JetStream (a stream and subject space per test) and the MongoDB wire server.
runtimeScenarios("JetStream and MongoDB", async () => {
  const tag = randomBytes(6).toString("hex");
  const stream = `TEST_REFUNDS_${tag}`;
  const subjectPrefix = `test.${tag}.gateway.events`;
  await ensureEventsStream(nc, { name: stream, subjects: [`test.${tag}.>`] });
  const bus = await createJetStreamEventBus({ nc, stream, retryOnErrorMs: 100, ackWaitMs: 5_000 });
  const testDb = await createTestDb("refunds_rt");
  return {
    bus,
    refunds: await createMongoRefundRepository(testDb.db),
    paidSessions: await createMongoPaidSessionStore(testDb.db),
    subjectPrefix,
    durable: `refunds_${tag}`,
    async close() {
      await bus.close();
      await nc.request(`$JS.API.STREAM.DELETE.${stream}`).catch(() => undefined);
      await testDb.drop();
    },
  };
});
