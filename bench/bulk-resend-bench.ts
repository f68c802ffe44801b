// Bulk resend at scale (issue 12): N events delivered once through the webhooks runtime, then
// replayed with the operators' bulk resend, called again with the answered cutoff until it
// resends nothing (docs/decisions.md#bulk-resends-answer-in-bounded-time-and-drain-in-repeated-calls).
//   baseline: the first delivery of the N events (published on JetStream at once, until the
//             receiver has them all), by the same runtime on the same servers
//   replay:   the bulk resend calls and the resends they queue, until the receiver has each
//             event a second time
// Reported: each call's time, the drain's total time and rate, its ratio to the baseline, and how
// many events the receiver got other than exactly twice (must be 0: every event resent once).
// Run: npx tsx bench/bulk-resend-bench.ts [--events N]
// Servers: a local FerretDB 1.24 and nats-server from the testkit, or MONGODB_URL / NATS_URL.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import {
  connectNats,
  createJetStreamEventBus,
  createSecretBox,
  ensureEventsStream,
  systemClock,
} from "@gateway/platform";
import { ferretDbBackend, type LocalServer, startFerretDb, startNatsServer } from "@gateway/testkit";
import { MongoClient } from "mongodb";
import { createMongoWebhooksStores } from "../services/webhooks/src/adapters/mongo/create-mongo-webhooks-stores.js";
import { bulkResendDeliveries } from "../services/webhooks/src/app/resend-deliveries.js";
import { setEndpoint } from "../services/webhooks/src/app/webhook-endpoints.js";
import { eventFacts, newScope, publishedEvent } from "../services/webhooks/test/support/fixtures.js";
import { startBenchWebhooksRuntime } from "./support/bench-webhooks-runtime.js";

const { values } = parseArgs({ options: { events: { type: "string", default: "10000" } } });
const EVENTS = Number.parseInt(values.events, 10);
if (!Number.isInteger(EVENTS) || EVENTS < 1) throw new Error("--events must be a positive whole number");
/** Generous bounds: a run that needs them has failed. */
const FIRST_DELIVERY_TIMEOUT_MS = 10 * 60_000;
const DRAIN_TIMEOUT_MS = 10 * 60_000;

/** A receiver on loopback that answers 200 and counts each webhook id's arrivals. */
async function startCountingReceiver() {
  const arrivals = new Map<string, number>();
  let total = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = req.headers["x-service-webhook-id"];
      if (typeof id === "string") arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
      total++;
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    total: () => total,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function waitUntil(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const started: LocalServer[] = [];
const keep = async (server: Promise<LocalServer>) => {
  const s = await server;
  started.push(s);
  return s;
};
const mongoUrl = process.env.MONGODB_URL ?? (await keep(startFerretDb())).url;
const natsUrl = process.env.NATS_URL ?? (await keep(startNatsServer())).url;
const client = await MongoClient.connect(mongoUrl);
const nc = await connectNats(natsUrl, "bulk-resend-bench");
const receiver = await startCountingReceiver();
const tag = randomBytes(5).toString("hex");
const stream = `BENCH_RESEND_${tag}`;
const prefix = `bench.${tag}.gateway.events`;
const db = client.db(`bench_resend_${tag}`);
try {
  await ensureEventsStream(nc, { name: stream, subjects: [`bench.${tag}.>`] });
  const bus = await createJetStreamEventBus({ nc, stream });
  const stores = await createMongoWebhooksStores(db, createSecretBox(randomBytes(32)));
  const scope = newScope();
  await setEndpoint({ endpoints: stores.endpoints, clock: systemClock }, scope, receiver.url);
  const runtime = await startBenchWebhooksRuntime({
    stores,
    bus,
    nc,
    subjectPrefix: prefix,
    durable: "bulk_resend_bench",
  });
  try {
    console.log(
      `${EVENTS} events, delivered once, then resent in bulk; MongoDB wire server: ${process.env.MONGODB_URL ? "MONGODB_URL" : `FerretDB 1.24 (${ferretDbBackend()})`}\n`,
    );
    const firstBegan = performance.now();
    for (let i = 0; i < EVENTS; i += 500) {
      const batch = Array.from({ length: Math.min(500, EVENTS - i) }, () =>
        bus.publish(
          publishedEvent(eventFacts("session.succeeded", { scope, occurredAt: new Date() }), prefix),
        ),
      );
      await Promise.all(batch);
    }
    await waitUntil(
      () => receiver.arrivals.size >= EVENTS,
      FIRST_DELIVERY_TIMEOUT_MS,
      "the first deliveries",
    );
    const firstMs = performance.now() - firstBegan;

    const deps = { stores, clock: systemClock, wake: () => runtime.wake() };
    const calls: Array<{ resent: number; ms: number }> = [];
    const drainBegan = performance.now();
    let cutoff: Date | undefined;
    for (;;) {
      const callBegan = performance.now();
      const outcome = await bulkResendDeliveries(deps, scope, cutoff ? { createdLte: cutoff } : {});
      calls.push({ resent: outcome.resent, ms: performance.now() - callBegan });
      cutoff = outcome.createdLte;
      if (outcome.resent === 0) break;
      if (performance.now() - drainBegan > DRAIN_TIMEOUT_MS)
        throw new Error("the bulk resend calls did not finish");
    }
    const everyEventTwice = () => [...receiver.arrivals.values()].every((n) => n >= 2);
    await waitUntil(everyEventTwice, DRAIN_TIMEOUT_MS, "every resend's arrival");
    const drainMs = performance.now() - drainBegan;
    // Late duplicates would arrive within a poll interval of the last resend.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const notTwice = [...receiver.arrivals.values()].filter((n) => n !== 2).length;
    const resent = calls.reduce((sum, c) => sum + c.resent, 0);

    const firstPerSecond = (EVENTS / firstMs) * 1000;
    const drainPerSecond = (EVENTS / drainMs) * 1000;
    console.log(
      "| events | calls | events resent | slowest call ms | first delivery s | drain s | first deliveries/s | resends/s | resends ÷ first | events not received exactly twice |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    console.log(
      `| ${EVENTS} | ${calls.length} | ${resent} | ${Math.max(...calls.map((c) => c.ms)).toFixed(0)} | ${(firstMs / 1000).toFixed(1)} | ${(drainMs / 1000).toFixed(1)} | ${firstPerSecond.toFixed(0)} | ${drainPerSecond.toFixed(0)} | ${(drainPerSecond / firstPerSecond).toFixed(2)} | ${notTwice} |`,
    );
    console.log(`\nEach call: ${calls.map((c) => `${c.resent} in ${c.ms.toFixed(0)} ms`).join("; ")}`);
    if (resent !== EVENTS || notTwice !== 0)
      throw new Error(
        `expected each of ${EVENTS} events resent once; resent ${resent}, ${notTwice} not received twice`,
      );
  } finally {
    await runtime.stop();
    await bus.close();
  }
} finally {
  await nc.request(`$JS.API.STREAM.DELETE.${stream}`).catch(() => undefined);
  await db.dropDatabase().catch(() => undefined);
  await receiver.close();
  await nc.drain();
  await client.close();
  for (const server of started.reverse()) await server.stop();
}
