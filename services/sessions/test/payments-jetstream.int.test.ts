import { randomBytes } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import {
  connectNats,
  createJetStreamEventBus,
  createLogger,
  type EventBus,
  ensureEventsStream,
  type NatsConnection,
  type ReceivedEvent,
} from "@gateway/platform";
import { SessionEventSchema, SessionStatus } from "@gateway/proto";
import { createTestDb, type TestDb, waitFor } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMongoSessionRepository,
  SESSIONS_COLLECTION,
} from "../src/adapters/mongo/mongo-session-repository.js";
import { createOutboxRelay, type OutboxRelay } from "../src/app/outbox-relay.js";
import type { OutboxStore, SessionRepository } from "../src/app/ports.js";
import { settleAttempt } from "../src/app/settle-attempt.js";
import { startPayment } from "../src/app/start-payment.js";
import type { Session } from "../src/domain/session.js";
import { payOnCardPage } from "./support/card-page.js";
import { pendingEventsOf } from "./support/events.js";
import { type PaymentHarness, startPaymentHarness, tokenOf } from "./support/payment-harness.js";

// Distributed mode: sessions in the MongoDB wire server, events relayed to NATS JetStream (a
// stream and subject space of this file's own), payments through the real EPG simulator.

const logger = createLogger({ service: "sessions-test", level: "silent" });
const VISA = "4242424242424242";
const CVC = "737";

let nc: NatsConnection;
let bus: EventBus;
let stream: string;
let subjectPrefix: string;
let testDb: TestDb;
let repo: SessionRepository;
let h: PaymentHarness;
const received: ReceivedEvent[] = [];
const relays: OutboxRelay[] = [];

beforeAll(async () => {
  nc = await connectNats(process.env.NATS_URL ?? "nats://127.0.0.1:4222", "sessions-outbox-test");
  const tag = randomBytes(6).toString("hex");
  stream = `TEST_SESSIONS_${tag}`;
  subjectPrefix = `test.${tag}.gateway.events`;
  await ensureEventsStream(nc, { name: stream, subjects: [`test.${tag}.>`] });
  bus = await createJetStreamEventBus({ nc, stream, ackWaitMs: 5_000 });
  await bus.subscribe({
    durable: `sessions_${tag}`,
    subjects: [`${subjectPrefix}.>`],
    handler: async (e) => {
      received.push(e);
      return "ack";
    },
  });
  testDb = await createTestDb("sessions_pay");
  repo = await createMongoSessionRepository(testDb.db);
  h = await startPaymentHarness({ repo });
});

afterAll(async () => {
  for (const relay of relays) await relay.stop();
  await h?.close();
  await bus?.close();
  await nc?.request(`$JS.API.STREAM.DELETE.${stream}`).catch(() => undefined);
  await nc?.drain();
  await testDb?.drop();
});

function relayOver(store: OutboxStore, eventBus: EventBus = bus): OutboxRelay {
  const relay = createOutboxRelay({
    store,
    bus: eventBus,
    clock: h.clock,
    logger,
    subjectPrefix,
    pollIntervalMs: 50,
  });
  relays.push(relay);
  return relay;
}

/** A paid session whose session.succeeded event sits in the outbox, not yet published. */
async function paidSession(cvc = "123"): Promise<{ session: Session; eventId: string }> {
  const session = await h.newSession();
  const started = await startPayment(h.deps, tokenOf(session), "en");
  const page = await payOnCardPage(started.redirectUrl, { number: VISA, cvc });
  await settleAttempt(h.deps, page.orderId, "return");
  const [event] = await pendingEventsOf(repo, session.id);
  if (!event) throw new Error("the payment stored no event");
  return { session, eventId: event.eventId };
}

/** Deliveries of `eventId` once the stream had time to deliver any duplicate. */
async function deliveriesOf(eventId: string): Promise<ReceivedEvent[]> {
  await waitFor(() => received.some((e) => e.id === eventId) || undefined, {
    timeoutMs: 10_000,
    message: `event ${eventId} to arrive`,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  return received.filter((e) => e.id === eventId);
}

/** Every string (and key) of a stored document, recursively. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === "object" && !(value instanceof Date)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out.push(k);
      stringsOf(v, out);
    }
  }
  return out;
}

/** A second process's view of the same database: its own client and repository. */
async function otherProcessRepo(): Promise<{ repo: SessionRepository; close: () => Promise<void> }> {
  const client = new MongoClient(process.env.MONGODB_URL!, { retryWrites: false });
  await client.connect();
  return {
    repo: await createMongoSessionRepository(client.db(testDb.db.databaseName)),
    close: () => client.close(),
  };
}

describe("events from MongoDB to JetStream", () => {
  it("when a payment succeeds, then session.succeeded is published once with the outbox's id, and no card number or CVC is stored", async () => {
    const { session, eventId } = await paidSession(CVC);
    const relay = relayOver(repo);
    expect(await relay.runOnce()).toBe(1);
    const deliveries = await deliveriesOf(eventId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.subject).toBe(`${subjectPrefix}.session.succeeded`);
    const decoded = fromBinary(SessionEventSchema, deliveries[0]!.data);
    expect(decoded).toMatchObject({ eventId, eventType: "session.succeeded", sequence: 1n });
    expect(decoded.session?.status).toBe(SessionStatus.SUCCEEDED);
    expect(decoded.payment).toMatchObject({ cardBrand: "visa", cardLastFour: "4242", cardCountry: "US" });
    expect(await relay.runOnce()).toBe(0);

    const raw = await testDb.db.collection(SESSIONS_COLLECTION).findOne({ id: session.id });
    expect(raw?.outboxPending).toBe(0);
    expect(raw?.outbox?.[0]?.publishedAt).toBeInstanceOf(Date);

    // Nothing the buyer typed on the card page is kept: not in fields, keys, nor event payloads.
    const docs = await testDb.db.collection(SESSIONS_COLLECTION).find({}).toArray();
    const strings = stringsOf(docs);
    for (const doc of docs) {
      for (const entry of (doc.outbox ?? []) as Array<{ payload: string }>) {
        const payload = fromBinary(SessionEventSchema, Buffer.from(entry.payload, "base64"));
        strings.push(
          ...stringsOf(
            JSON.parse(
              JSON.stringify(payload, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
            ),
          ),
        );
        strings.push(Buffer.from(entry.payload, "base64").toString("latin1"));
      }
    }
    expect(strings.some((s) => s.includes(VISA))).toBe(false);
    expect(strings.some((s) => s === CVC)).toBe(false);
    expect(strings.some((s) => /^(cvc|cvv|pan|card_?number)$/i.test(s))).toBe(false);
    expect(stringsOf(deliveries[0]).some((s) => s.includes(VISA))).toBe(false);
  });

  it("when the return and the callback race on MongoDB, then one outcome and one event are stored, and Pay pressed twice shares one attempt", async () => {
    const session = await h.newSession();
    const token = tokenOf(session);
    const [a, b] = await Promise.all([startPayment(h.deps, token, "en"), startPayment(h.deps, token, "en")]);
    expect(b).toEqual(a);
    const page = await payOnCardPage(a.redirectUrl, { number: VISA });
    const results = await Promise.all([
      settleAttempt(h.deps, page.orderId, "return"),
      settleAttempt(h.deps, page.orderId, "callback"),
    ]);
    expect(results[1].attempt).toEqual(results[0].attempt);
    const stored = await repo.findById(session.scope, session.id);
    expect(stored?.status).toBe("SUCCEEDED");
    expect(stored?.attempts).toHaveLength(1);
    expect((await pendingEventsOf(repo, session.id)).map((e) => e.type)).toEqual(["session.succeeded"]);
  });

  it("when publishing fails, then the event stays pending in MongoDB and a later look publishes it", async () => {
    const { session, eventId } = await paidSession();
    let failed = false;
    const flaky: EventBus = {
      publish: async (e) => {
        if (e.id === eventId && !failed) {
          failed = true;
          throw new Error("JetStream did not acknowledge");
        }
        await bus.publish(e);
      },
      subscribe: (o) => bus.subscribe(o),
      close: async () => undefined,
    };
    const relay = relayOver(repo, flaky);
    await relay.runOnce();
    expect(failed).toBe(true);
    expect((await pendingEventsOf(repo, session.id)).map((e) => e.eventId)).toEqual([eventId]);
    await relay.runOnce();
    expect(await pendingEventsOf(repo, session.id)).toEqual([]);
    expect(await deliveriesOf(eventId)).toHaveLength(1);
  });

  it("when the process dies right after the change, then a new relay over the same database publishes the event, once", async () => {
    const before = relayOver(repo);
    before.start();
    await before.stop(); // the process is gone before its relay looked at the outbox
    const { eventId } = await paidSession();
    const other = await otherProcessRepo();
    try {
      const relay = relayOver(other.repo);
      relay.start();
      expect(await deliveriesOf(eventId)).toHaveLength(1);
      await waitFor(async () => (await other.repo.findPendingOutbox(100)).length === 0 || undefined, {
        timeoutMs: 5_000,
      });
      await relay.stop();
    } finally {
      await other.close();
    }
  });

  it("when the process dies between publishing and marking, then the new relay publishes the same id again and JetStream keeps one", async () => {
    const { session, eventId } = await paidSession();
    const crashing: OutboxStore = {
      findPendingOutbox: (limit) => repo.findPendingOutbox(limit),
      markOutboxPublished: () => Promise.reject(new Error("the process died")),
    };
    expect(await relayOver(crashing).runOnce()).toBe(1); // published, never marked
    expect((await pendingEventsOf(repo, session.id)).map((e) => e.eventId)).toEqual([eventId]);

    const other = await otherProcessRepo();
    try {
      expect(await relayOver(other.repo).runOnce()).toBe(1);
    } finally {
      await other.close();
    }
    expect(await deliveriesOf(eventId)).toHaveLength(1);
    expect(await pendingEventsOf(repo, session.id)).toEqual([]);
  });
});
