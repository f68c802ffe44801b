// Webhook delivery in distributed mode (issue 12): how fast a session event published on
// JetStream becomes a signed POST at a local receiver, against the floor of the same work done
// plainly, side by side in one run on the same MongoDB wire server and NATS.
//   floor:    a JetStream consumer (the platform's bus) that stores the event (insertOne) and
//             POSTs its bytes to the receiver, then acks
//   webhooks: the webhooks runtime as the webhooks process runs it (Mongo stores, JetStream bus,
//             signing HTTP sender): store the event, queue its first attempt, send, record
// For each, with K deliveries already stored (growth): deliveries/s when N events are published at
// once, then event-to-delivery latency (publish call to the receiver's last byte) at half that rate.
// The two take turns for --rounds rounds, each on a fresh stream and database: the median rate of
// each, and the latencies of every round together.
// Run: npx tsx bench/webhook-delivery-bench.ts [--events N] [--seconds S] [--stored 0,10000]
//        [--rounds N]
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
import { storeOldDeliveries } from "./support/old-deliveries.js";
import { percentile } from "./support/percentile.js";
import { startTimingReceiver, type TimingReceiver } from "./support/timing-receiver.js";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "1000" },
    seconds: { type: "string", default: "10" },
    stored: { type: "string", default: "0,10000" },
    rounds: { type: "string", default: "3" },
  },
});
const EVENTS = positiveInt(values.events, "--events");
const SECONDS = positiveInt(values.seconds, "--seconds");
const STORED = values.stored.split(",").map((k) => nonNegativeInt(k, "--stored"));
const ROUNDS = positiveInt(values.rounds, "--rounds");

/** The median of the rounds' burst rates (the lower middle one of an even count, as every p50 here). */
const medianRate = (rounds: Round[]): number =>
  percentile(
    rounds.map((r) => r.perSecond).sort((a, b) => a - b),
    0.5,
  );

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

/** One contender, one round: its burst's rate and every latency at half load. */
interface Round {
  perSecond: number;
  latencies: number[];
}

async function measure(
  contender: Contender,
  stored: number,
  servers: { nc: NatsConnection; client: MongoClient },
  receiver: TimingReceiver,
): Promise<Round> {
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
    await Promise.all(Array.from({ length: EVENTS }, () => publish()));
    await receiver.waitForAll(120_000);
    const perSecond = (EVENTS / (performance.now() - began)) * 1000;
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
    return { perSecond, latencies: receiver.latencies() };
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
    `| consumer | stored deliveries | deliveries/s, median of ${ROUNDS} | each round | ÷ floor | p50 ms at half load | p99 ms | events timed |`,
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const stored of STORED) {
    const rounds = new Map<Contender, Round[]>([
      [FLOOR, []],
      [WEBHOOKS, []],
    ]);
    // The two take turns, the floor first in the first round: on this machine a contender's rate
    // moved by up to half from one pair of measurements to the next, and by as much for both.
    for (let round = 0; round < ROUNDS; round++)
      for (const contender of round % 2 === 0 ? [FLOOR, WEBHOOKS] : [WEBHOOKS, FLOOR])
        rounds.get(contender)!.push(await measure(contender, stored, { nc, client }, receiver));
    const floorRate = medianRate(rounds.get(FLOOR)!);
    for (const [contender, measured] of rounds) {
      const latencies = measured.flatMap((r) => r.latencies).sort((a, b) => a - b);
      const rate = medianRate(measured);
      console.log(
        `| ${contender.name} | ${stored} | ${rate.toFixed(0)} | ${measured.map((r) => r.perSecond.toFixed(0)).join(", ")} | ` +
          `${(rate / floorRate).toFixed(2)} | ${percentile(latencies, 0.5).toFixed(1)} | ${percentile(latencies, 0.99).toFixed(1)} | ${latencies.length} |`,
      );
    }
  }
} finally {
  await receiver.close();
  await nc.drain();
  await client.close();
  for (const server of started.reverse()) await server.stop();
}
