// Webhook delivery in distributed mode (issue 12): how fast a session event published on
// JetStream becomes a signed POST at a local receiver, against the floor of the same work done
// plainly, side by side in one run on the same MongoDB wire server and NATS.
//   floor:    a JetStream consumer (the platform's bus) that stores the event (insertOne) and
//             POSTs its bytes to the receiver, then acks
//   webhooks: the webhooks runtime as the webhooks process runs it (Mongo stores, JetStream bus,
//             signing HTTP sender): store the event, queue its first attempt, send, record
// For each, with K deliveries already stored (growth): deliveries/s when N events are published at
// once, then event-to-delivery latency (publish call to the receiver's last byte) at half that rate.
// Before the table, an untimed burst of --warmup-events (default: --events) through each.
// Run: npx tsx bench/webhook-delivery-bench.ts [--events N] [--seconds S] [--stored 0,10000]
//        [--warmup-events N]
// Servers: a local FerretDB 1.24 (GATEWAY_FERRETDB_BACKEND picks its backend) and nats-server from
// the testkit, or MONGODB_URL / NATS_URL.
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import {
  connectNats,
  createJetStreamEventBus,
  createSecretBox,
  type EventBus,
  ensureEventsStream,
  type NatsConnection,
  systemClock,
} from "@gateway/platform";
import { ferretDbBackend, type LocalServer, startFerretDb, startNatsServer } from "@gateway/testkit";
import { type Db, MongoClient } from "mongodb";
import { createMongoWebhooksStores } from "../services/webhooks/src/adapters/mongo/create-mongo-webhooks-stores.js";
import { setEndpoint } from "../services/webhooks/src/app/webhook-endpoints.js";
import type { AccountScope } from "../services/webhooks/src/domain/account-scope.js";
import { eventFacts, newScope, publishedEvent } from "../services/webhooks/test/support/fixtures.js";
import { startBenchWebhooksRuntime } from "./support/bench-webhooks-runtime.js";
import { percentile } from "./support/http-load.js";
import { storeOldDeliveries } from "./support/old-deliveries.js";
import { startTimingReceiver, type TimingReceiver } from "./support/timing-receiver.js";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "1000" },
    seconds: { type: "string", default: "10" },
    stored: { type: "string", default: "0,10000" },
    "warmup-events": { type: "string" },
  },
});
const EVENTS = positiveInt(values.events, "--events");
const SECONDS = positiveInt(values.seconds, "--seconds");
const STORED = values.stored.split(",").map((k) => nonNegativeInt(k, "--stored"));
/** Events of the untimed burst through each contender before the table; 0: none. */
const WARMUP_EVENTS = nonNegativeInt(values["warmup-events"] ?? String(EVENTS), "--warmup-events");

function positiveInt(raw: string, name: string): number {
  const n = Number.parseInt(raw, 10);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}
function nonNegativeInt(raw: string, name: string): number {
  const n = Number.parseInt(raw, 10);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must list whole numbers >= 0`);
  return n;
}

/** One consumer of the events under test, started on a fresh stream and database. */
interface Contender {
  name: string;
  start(o: {
    bus: EventBus;
    nc: NatsConnection;
    db: Db;
    prefix: string;
    scope: AccountScope;
    receiverUrl: string;
  }): Promise<{
    stop(): Promise<void>;
  }>;
}

const FLOOR: Contender = {
  name: "floor: consume, insertOne, POST",
  async start({ bus, db, prefix, receiverUrl }) {
    const events = db.collection("floor_events");
    const subscription = await bus.subscribe({
      durable: "floor",
      subjects: [`${prefix}.>`],
      concurrency: 16,
      async handler(received) {
        await events.insertOne({ id: received.id, subject: received.subject, body: received.data });
        const answer = await fetch(receiverUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "x-service-webhook-id": received.id },
          body: received.data,
        });
        await answer.arrayBuffer();
        return "ack";
      },
    });
    return { stop: () => subscription.stop() };
  },
};

const WEBHOOKS: Contender = {
  name: "webhooks runtime",
  async start({ bus, nc, db, prefix, scope, receiverUrl }) {
    const stores = await createMongoWebhooksStores(db, createSecretBox(randomBytes(32)));
    await setEndpoint({ endpoints: stores.endpoints, clock: systemClock }, scope, receiverUrl);
    return startBenchWebhooksRuntime({ stores, bus, nc, subjectPrefix: prefix, durable: "webhooks_bench" });
  },
};

interface Row {
  contender: string;
  stored: number;
  perSecond: number;
  p50: number;
  p99: number;
  measured: number;
}

async function measure(
  contender: Contender,
  stored: number,
  servers: { nc: NatsConnection; client: MongoClient },
  receiver: TimingReceiver,
  /** `burstOnly`: the burst of `events`, without the half-load latencies (a warm-up). */
  o: { events: number; burstOnly?: boolean } = { events: EVENTS },
): Promise<Row> {
  const { events } = o;
  const tag = randomBytes(5).toString("hex");
  const stream = `BENCH_WEBHOOKS_${tag}`;
  const prefix = `bench.${tag}.gateway.events`;
  await ensureEventsStream(servers.nc, { name: stream, subjects: [`bench.${tag}.>`] });
  const bus = await createJetStreamEventBus({ nc: servers.nc, stream });
  const db = servers.client.db(`bench_webhooks_${tag}`);
  const scope = newScope();
  await storeOldDeliveries(db, scope, stored);
  const running = await contender.start({
    bus,
    nc: servers.nc,
    db,
    prefix,
    scope,
    receiverUrl: receiver.url,
  });
  try {
    const publish = (at = performance.now()) => {
      const message = publishedEvent(
        eventFacts("session.succeeded", { scope, occurredAt: new Date() }),
        prefix,
      );
      receiver.expect(message.id, at);
      return bus.publish(message);
    };
    // Saturation: N events at once, timed until the receiver has them all.
    receiver.reset();
    const began = performance.now();
    await Promise.all(Array.from({ length: events }, () => publish()));
    await receiver.waitForAll(120_000);
    const perSecond = (events / (performance.now() - began)) * 1000;
    if (o.burstOnly)
      return { contender: contender.name, stored, perSecond, p50: Number.NaN, p99: Number.NaN, measured: 0 };
    // Half load: events paced at half the saturation rate for SECONDS, each one's latency kept.
    receiver.reset();
    const gapMs = 1000 / (perSecond / 2);
    const until = performance.now() + SECONDS * 1000;
    const publishes: Promise<void>[] = [];
    for (let next = performance.now(); next < until; next += gapMs) {
      const wait = next - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      publishes.push(publish(next));
    }
    await Promise.all(publishes);
    await receiver.waitForAll(120_000);
    const latencies = receiver.latencies().sort((a, b) => a - b);
    return {
      contender: contender.name,
      stored,
      perSecond,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      measured: latencies.length,
    };
  } finally {
    await running.stop();
    await bus.close();
    await servers.nc.request(`$JS.API.STREAM.DELETE.${stream}`).catch(() => undefined);
    await db.dropDatabase();
  }
}

const started: LocalServer[] = [];
const mongoUrl = process.env.MONGODB_URL ?? (await startAndKeep(startFerretDb())).url;
const natsUrl = process.env.NATS_URL ?? (await startAndKeep(startNatsServer())).url;
async function startAndKeep(server: Promise<LocalServer>): Promise<LocalServer> {
  const s = await server;
  started.push(s);
  return s;
}

const client = await MongoClient.connect(mongoUrl);
const nc = await connectNats(natsUrl, "webhook-delivery-bench");
const receiver = await startTimingReceiver();
try {
  console.log(
    `${EVENTS} events at once, then half that rate for ${SECONDS} s; MongoDB wire server: ${process.env.MONGODB_URL ? "MONGODB_URL" : `FerretDB 1.24 (${ferretDbBackend()})`}\n`,
  );
  console.log(
    "| consumer | stored deliveries | deliveries/s | ÷ floor | p50 ms at half load | p99 ms | events timed |",
  );
  console.log("|---|---|---|---|---|---|---|");
  // Untimed: one burst through each contender first. Everything but the servers runs in this
  // process, and the first pair measured was the slowest whatever was stored: this process's code
  // was still being compiled and its connections opened.
  if (WARMUP_EVENTS > 0)
    for (const contender of [FLOOR, WEBHOOKS])
      await measure(contender, 0, { nc, client }, receiver, { events: WARMUP_EVENTS, burstOnly: true });
  for (const stored of STORED) {
    const floor = await measure(FLOOR, stored, { nc, client }, receiver);
    const webhooks = await measure(WEBHOOKS, stored, { nc, client }, receiver);
    for (const row of [floor, webhooks]) {
      console.log(
        `| ${row.contender} | ${row.stored} | ${row.perSecond.toFixed(0)} | ${(row.perSecond / floor.perSecond).toFixed(2)} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.measured} |`,
      );
    }
  }
} finally {
  await receiver.close();
  await nc.drain();
  await client.close();
  for (const server of started.reverse()) await server.stop();
}
