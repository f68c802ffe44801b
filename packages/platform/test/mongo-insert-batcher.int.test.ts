import { randomBytes } from "node:crypto";
import { type Collection, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchedInserts, GatewayError, MAX_INSERT_BATCH, mongoOperationRunner } from "../src/index.js";

interface Row {
  key: string;
  note: string;
}

describe("batched inserts on the MongoDB wire server", () => {
  const url = process.env.MONGODB_URL ?? "mongodb://127.0.0.1:27017";
  const database = `platform_insert_batcher_${randomBytes(6).toString("hex")}`;
  const client = new MongoClient(url, { retryWrites: false });
  let rows: Collection<Row>;
  beforeAll(async () => {
    await client.connect();
    rows = client.db(database).collection<Row>("rows");
    await rows.createIndex({ key: 1 }, { unique: true });
  });
  afterAll(async () => {
    await client.db(database).dropDatabase();
    await client.close();
  });

  /** Counts the insertMany commands the batcher sends, and the documents in each. */
  function counting(collection: Collection<Row>) {
    const batches: number[] = [];
    return {
      batches,
      insertMany(docs: Row[], options: { ordered: false }) {
        batches.push(docs.length);
        return collection.insertMany(docs, options);
      },
    };
  }

  it("when inserts arrive together, then they share one command and each caller gets its own outcome", async () => {
    await rows.insertOne({ key: "taken", note: "first" });
    const target = counting(rows);
    const insert = batchedInserts<Row>(target);
    const outcomes = await Promise.all([
      insert({ key: "a", note: "a" }),
      insert({ key: "taken", note: "second" }),
      insert({ key: "b", note: "b" }),
      insert({ key: "b", note: "b again" }),
    ]);
    expect(target.batches).toEqual([4]);
    expect(outcomes[0]).toBe("inserted");
    expect(outcomes[1]).toBe("already_exists");
    // One of the two with key "b" is stored, the other learns it is there.
    expect([outcomes[2], outcomes[3]].sort()).toEqual(["already_exists", "inserted"]);
    expect(await rows.countDocuments({ key: { $in: ["a", "b"] } })).toBe(2);
    expect((await rows.findOne({ key: "taken" }))?.note).toBe("first");
  });

  it("when inserts come one after another, then each goes out on its own at once", async () => {
    const target = counting(rows);
    const insert = batchedInserts<Row>(target);
    expect(await insert({ key: "solo-1", note: "" })).toBe("inserted");
    expect(await insert({ key: "solo-2", note: "" })).toBe("inserted");
    expect(target.batches).toEqual([1, 1]);
  });

  it("when more arrive together than one command takes, then they go out in bounded batches and all are stored", async () => {
    const target = counting(rows);
    const insert = batchedInserts<Row>(target);
    const count = MAX_INSERT_BATCH * 2 + 5;
    const outcomes = await Promise.all(
      Array.from({ length: count }, (_, i) => insert({ key: `bulk-${i}`, note: "" })),
    );
    expect(outcomes.every((o) => o === "inserted")).toBe(true);
    expect(target.batches).toEqual([MAX_INSERT_BATCH, MAX_INSERT_BATCH, 5]);
    expect(await rows.countDocuments({ key: { $regex: "^bulk-" } })).toBe(count);
  });

  it("when a document is refused for another reason, then only its caller gets the error", async () => {
    // No wire server refuses a plain document here, so the driver's answer is played back.
    const refusing = {
      async insertMany(): Promise<never> {
        throw Object.assign(new Error("bulk write failed"), {
          writeErrors: [{ index: 1, code: 2, errmsg: "field name is not allowed" }],
        });
      },
    };
    const insert = batchedInserts<Row>(refusing);
    const [ok, bad] = await Promise.allSettled([
      insert({ key: "fine", note: "" }),
      insert({ key: "$bad", note: "" }),
    ]);
    expect(ok).toEqual({ status: "fulfilled", value: "inserted" });
    expect(bad.status).toBe("rejected");
    expect((bad as PromiseRejectedResult).reason).toMatchObject({
      code: 2,
      message: "field name is not allowed",
    });
  });

  it("when the database cannot be reached, then every insert of the batch fails with a retryable error", async () => {
    const unreachable = new MongoClient("mongodb://127.0.0.1:9", {
      retryWrites: false,
      serverSelectionTimeoutMS: 200,
    });
    const insert = batchedInserts<Row>(
      unreachable.db(database).collection<Row>("rows"),
      mongoOperationRunner("test"),
    );
    const settled = await Promise.allSettled([
      insert({ key: "x", note: "" }),
      insert({ key: "y", note: "" }),
    ]);
    await unreachable.close();
    for (const s of settled) {
      expect(s.status).toBe("rejected");
      const reason = (s as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(GatewayError);
      expect((reason as GatewayError).reason).toBe("SERVICE_UNAVAILABLE");
    }
  });
});
