import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDb,
  type LocalServer,
  startFerretDb,
  startNatsServer,
  startPostgres,
  testServers,
  waitFor,
} from "../src/index.js";
import { installContainmentIndexMirror } from "../src/local-servers/containment-index-mirror.js";
import { postgresBinDir } from "../src/local-servers/postgres-binaries.js";

const run = promisify(execFile);

// These servers are this file's own, on free ports: the shared ones from the global setup stay untouched.
describe("local FerretDB", () => {
  let ferretdb: LocalServer;
  beforeAll(async () => {
    ferretdb = await startFerretDb();
  });
  afterAll(async () => {
    await ferretdb?.stop();
  });

  const withClient = async <T>(
    fn: (client: MongoClient) => Promise<T>,
    serverSelectionTimeoutMS = 5_000,
  ): Promise<T> => {
    const client = new MongoClient(ferretdb.url, { serverSelectionTimeoutMS });
    try {
      await client.connect();
      return await fn(client);
    } finally {
      await client.close();
    }
  };

  it("when a document is written, then it reads back from the server", async () => {
    expect(ferretdb.url).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    await withClient((client) =>
      client
        .db("testkit")
        .collection("docs")
        .insertOne({ _id: "doc-1" as never, amount: "12.34" }),
    );

    const found = await withClient((client) =>
      client
        .db("testkit")
        .collection("docs")
        .findOne({ _id: "doc-1" as never }),
    );
    expect(found).toEqual({ _id: "doc-1", amount: "12.34" });
  });

  it("when the server is killed and restarted, then it listens on the same URL with the same data", async () => {
    await withClient((client) =>
      client
        .db("testkit")
        .collection("docs")
        .insertOne({ _id: "doc-2" as never, note: "survives" }),
    );

    await ferretdb.kill();
    await expect(withClient((client) => client.db("admin").command({ ping: 1 }), 500)).rejects.toThrow();
    await ferretdb.restart();

    const found = await withClient((client) =>
      client
        .db("testkit")
        .collection("docs")
        .findOne({ _id: "doc-2" as never }),
    );
    expect(found).toEqual({ _id: "doc-2", note: "survives" });
  });

  it("when another server is asked for a port already in use, then it fails saying so", async () => {
    await expect(startFerretDb({ port: ferretdb.port })).rejects.toThrow(
      `port ${ferretdb.port} on 127.0.0.1 is already in use`,
    );
  });
});

describe("local FerretDB on PostgreSQL", () => {
  let ferretdb: LocalServer;
  let client: MongoClient;
  beforeAll(async () => {
    ferretdb = await startFerretDb({ backend: "postgresql" });
    client = await new MongoClient(ferretdb.url).connect();
  });
  afterAll(async () => {
    await client?.close();
    await ferretdb?.stop();
  });

  const planOf = async (filter: Record<string, unknown>): Promise<string> =>
    JSON.stringify(await client.db("testkit").collection("indexed").find(filter).explain());

  it("when an index is asked for, then equality lookups on each of its keys use it, with MongoDB's answers", async () => {
    const docs = client.db("testkit").collection("indexed");
    await docs.createIndex({ merchant: 1, reference: 1 }, { unique: true });
    await docs.insertMany(
      Array.from({ length: 3_000 }, (_, i) => ({ merchant: `m${i % 7}`, reference: `r${i}`, note: `n${i}` })),
    );
    await docs.insertOne({ merchant: "m-array", reference: ["r-a", "r-b"], note: "array" });

    for (const filter of [{ reference: "r1234" }, { merchant: "m3", reference: "r1234" }, { _id: "x" }]) {
      const plan = await planOf(filter);
      expect(plan, JSON.stringify(filter)).toContain("Index Scan");
      expect(plan, JSON.stringify(filter)).not.toContain("Seq Scan");
    }
    expect(await planOf({ note: "n1234" })).toContain("Seq Scan");

    expect(await docs.findOne({ merchant: "m2", reference: "r1234" }, { projection: { _id: 0 } })).toEqual({
      merchant: "m2",
      reference: "r1234",
      note: "n1234",
    });
    expect(await docs.countDocuments({ reference: "r-b" })).toBe(1);
    await expect(docs.insertOne({ merchant: "m2", reference: "r1234" })).rejects.toThrow(/duplicate key/i);
  });

  it("when a new collection fills with documents sharing keys, then within seconds lookups read only the selective key's index", async () => {
    const docs = client.db("testkit").collection("one_merchant");
    await docs.createIndex({ merchant: 1, mode: 1, reference: 1 }, { unique: true });
    await docs.insertMany(
      Array.from({ length: 3_000 }, (_, i) => ({ merchant: "m", mode: false, reference: `r${i}` })),
    );
    const indexConditions = async () => {
      const plan = JSON.stringify(
        await docs.find({ merchant: "m", mode: false, reference: "r1234" }).explain(),
      );
      return [...plan.matchAll(/"Index Cond":"([^"]*)"/g)].map(([, condition]) => condition);
    };

    // Until the table is analyzed, the planner also ANDs the indexes of `merchant` and `mode`,
    // which every document matches; with a look every minute that lasts up to a minute.
    await expect
      .poll(indexConditions, { timeout: 15_000, interval: 500 })
      .toEqual([expect.stringContaining("'reference'")]);
  });
});

describe("local PostgreSQL", () => {
  let postgres: LocalServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  /** One statement through psql; its single value, trimmed. */
  const sql = async (statement: string): Promise<string> => {
    const { stdout } = await run(join(postgresBinDir()!, "psql"), [postgres.url, "-qAt", "-c", statement]);
    return stdout.trim();
  };
  const analyzes = () => sql("SELECT autoanalyze_count FROM pg_stat_user_tables WHERE relname = 'growing'");
  const insertRows = (from: number, to: number) =>
    sql(`INSERT INTO growing SELECT i, md5(i::text) FROM generate_series(${from}, ${to}) AS i`);

  it("when a new table fills, then it is analyzed within seconds, and again only once it has grown by twice its size", async () => {
    await sql("CREATE TABLE growing (id int PRIMARY KEY, body text)");
    await insertRows(1, 100);
    await expect.poll(analyzes, { timeout: 15_000, interval: 250 }).toBe("1");

    // 150 changes: the default (a tenth of the table, plus 50) would analyze again within a
    // second or two; twice its size plus 50 (250) does not.
    await insertRows(101, 250);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await analyzes()).toBe("1");

    await insertRows(251, 400);
    await expect.poll(analyzes, { timeout: 15_000, interval: 250 }).toBe("2");
  });

  it("when FerretDB creates a btree index, then each key a lookup can use gets a GIN twin, and the live flag, times and attempt numbers do not", async () => {
    await installContainmentIndexMirror(postgres.url);
    await sql("CREATE TABLE deliveries (_jsonb jsonb)");
    // Indexes as FerretDB 1.24 makes them for the gateway: a list, a nested key, a unique pair, a queue.
    await sql(
      "CREATE INDEX list_idx ON deliveries USING btree (((_jsonb -> 'merchantId')), ((_jsonb -> 'livemode')), ((_jsonb -> 'createdAt')) DESC, ((_jsonb -> 'id')) DESC)",
    );
    await sql("CREATE INDEX token_idx ON deliveries USING btree ((((_jsonb -> 'links') -> 'token')))");
    await sql(
      "CREATE UNIQUE INDEX attempt_idx ON deliveries USING btree (((_jsonb -> 'eventId')), ((_jsonb -> 'attemptNumber')))",
    );
    await sql(
      "CREATE INDEX due_idx ON deliveries USING btree (((_jsonb -> 'status')), ((_jsonb -> 'dueAt')))",
    );

    const ginIndexes = await sql(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'deliveries' AND indexdef LIKE '% USING gin %'",
    );
    // Each twin's expression, parentheses and casts left out: `_jsonb -> 'eventId'`.
    const twins = ginIndexes
      .split("\n")
      .map((indexdef) => /USING gin \((.*)\) WITH/.exec(indexdef)?.[1]?.replace(/[()]|::text/g, ""));
    expect(twins.sort()).toEqual([
      "_jsonb -> 'eventId'",
      "_jsonb -> 'id'",
      "_jsonb -> 'links' -> 'token'",
      "_jsonb -> 'merchantId'",
      "_jsonb -> 'status'",
    ]);
  });

  it("when a document too large to store inline is written, then it is compressed with lz4", async () => {
    await sql("CREATE TABLE documents (body jsonb)");
    // About 4 KB of repetitive jsonb, like a session beside FerretDB's type schema.
    await sql(
      `INSERT INTO documents SELECT jsonb_object_agg('field' || i, jsonb_build_object('t', 'string')) FROM generate_series(1, 150) AS i`,
    );
    expect(await sql("SELECT pg_column_compression(body) FROM documents")).toBe("lz4");
    expect(Number(await sql("SELECT octet_length(body::text) FROM documents"))).toBeGreaterThan(2_500);
  });
});

describe("local NATS JetStream", () => {
  let nats: LocalServer;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.stop();
  });

  it("when NATS restarts mid-stream, then the stream keeps its messages and a reconnecting client carries on", async () => {
    expect(nats.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    const nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: "TESTKIT", subjects: ["testkit.>"] });
      const js = jetstream(nc);
      const first = await js.publish("testkit.events", "before restart", { msgID: "evt-1" });
      expect(first.seq).toBe(1);

      await nats.restart();

      // The same connection reconnects to the same port. The first publish right after the
      // reconnect may time out (as services must expect), so retry with a short timeout.
      const second = await waitFor(
        () => js.publish("testkit.events", "after restart", { msgID: "evt-2", timeout: 1_000 }),
        {
          timeoutMs: 20_000,
          intervalMs: 200,
          message: "a publish after the NATS restart",
        },
      );
      expect(second.seq).toBe(2);
      const info = await jsm.streams.info("TESTKIT");
      expect(info.state.messages).toBe(2);
      const stored = await jsm.streams.getMessage("TESTKIT", { seq: 1 });
      expect(stored?.string()).toBe("before restart");
    } finally {
      await nc.close();
    }
  });

  it("when stopped, then its data directory and log are removed and restart is refused", async () => {
    const other = await startNatsServer();
    const dataDir = dirname(other.logFile);
    expect(existsSync(other.logFile)).toBe(true);

    await other.stop();

    expect(existsSync(dataDir)).toBe(false);
    await expect(other.restart()).rejects.toThrow(/was stopped/);
  });
});

describe("createTestDb", () => {
  it("when a test database is dropped, then it no longer exists on the shared server", async () => {
    const testDb = await createTestDb("testkit");
    const name = testDb.db.databaseName;
    expect(name).toMatch(/^test_testkit_/);
    await testDb.db.collection("probe").insertOne({ written: true });

    await testDb.drop();

    const client = new MongoClient(testServers().mongodbUrl);
    try {
      const { databases } = await client.db("admin").admin().listDatabases();
      expect(databases.map((d) => d.name)).not.toContain(name);
    } finally {
      await client.close();
    }
  });
});
