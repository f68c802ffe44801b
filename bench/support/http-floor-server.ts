// The "floor" of bench/http-scale-bench.ts: the least an HTTP server must do for the gateway's
// create, GET and checkout-page requests, run as its own process (as the gateway is) so that it
// does not share the load generator's event loop.
//   memory (no FLOOR_MONGODB_URL): parse the JSON body, store it in a Map.
//   distributed: parse, insertOne into a collection of the given MongoDB wire server, then publish
//   the body to a JetStream stream on the given NATS (awaiting the ack), as a durable create must.
//   Documents are keyed by `_id` = session id, and a checkout link names the id beside its token,
//   so both GETs are one lookup by `_id`: the least work for FerretDB (on SQLite the only lookup
//   it does not answer by reading every document).
// Routes: POST /api/v1/gateway/sessions/, GET /api/v1/gateway/sessions/:id/, GET /checkout/:id.:token.
// Env: PORT, FLOOR_MONGODB_URL and FLOOR_NATS_URL (both or neither). Ready when GET /healthz is 200.

import { connectMongo, connectNats, newId, randomBase62, watchParentPipe } from "@gateway/platform";
import { jetstream, jetstreamManager, StorageType } from "@nats-io/jetstream";
import Fastify from "fastify";

interface Stored {
  id: string;
  token: string;
  body: Record<string, unknown>;
}

interface FloorStore {
  insert(s: Stored): Promise<void>;
  byId(id: string): Promise<Stored | null>;
  close(): Promise<void>;
}

function memoryStore(): FloorStore {
  const byId = new Map<string, Stored>();
  return {
    async insert(s) {
      byId.set(s.id, s);
    },
    byId: async (id) => byId.get(id) ?? null,
    async close() {},
  };
}

const STREAM = "BENCH_FLOOR";

async function distributedStore(mongodbUrl: string, natsUrl: string): Promise<FloorStore> {
  const mongo = await connectMongo(mongodbUrl, "bench-floor");
  const sessions = mongo.db("bench_floor").collection<Stored & { _id: string }>("sessions");
  const nc = await connectNats(natsUrl, "bench-floor");
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: STREAM, subjects: ["bench.floor.>"], storage: StorageType.File });
  const js = jetstream(nc);
  return {
    async insert(s) {
      await sessions.insertOne({ _id: s.id, ...s });
      await js.publish("bench.floor.created", JSON.stringify(s.body));
    },
    byId: (id) => sessions.findOne({ _id: id }),
    async close() {
      await nc.drain();
      await mongo.close();
    },
  };
}

const port = Number(process.env.PORT);
const mongodbUrl = process.env.FLOOR_MONGODB_URL ?? "";
const natsUrl = process.env.FLOOR_NATS_URL ?? "";
const publicUrl = `http://127.0.0.1:${port}`;
const store = mongodbUrl === "" ? memoryStore() : await distributedStore(mongodbUrl, natsUrl);

const view = (s: Stored) => ({
  id: s.id,
  checkout_url: `${publicUrl}/checkout/${s.id}.${s.token}`,
  ...s.body,
});
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ ok: true }));
app.post("/api/v1/gateway/sessions/", async (req, reply) => {
  const s: Stored = { id: newId("ps"), token: randomBase62(32), body: req.body as Record<string, unknown> };
  await store.insert(s);
  return reply.code(201).send(view(s));
});
app.get<{ Params: { id: string } }>("/api/v1/gateway/sessions/:id/", async (req, reply) => {
  const s = await store.byId(req.params.id);
  return s ? view(s) : reply.code(404).send({ title: "Not found" });
});
app.get<{ Params: { link: string } }>("/checkout/:link", async (req, reply) => {
  const [id = "", token] = req.params.link.split(".");
  const s = await store.byId(id);
  if (!s || s.token !== token)
    return reply.code(404).type("text/html").send("<!doctype html><title>Not found</title>");
  const { amount, description } = s.body as { amount?: string; description?: string };
  return reply
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><title>Pay</title><p>${escapeHtml(String(description ?? ""))}</p><p>${escapeHtml(String(amount ?? ""))} TND</p>`,
    );
});

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await app.close();
  await store.close();
  process.exit(0);
};
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
watchParentPipe(() => void shutdown());
await app.listen({ host: "127.0.0.1", port });
