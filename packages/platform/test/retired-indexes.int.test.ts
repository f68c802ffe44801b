import { describe, expect, it } from "vitest";
import { dropRetiredIndexes } from "../src/index.js";
import { twoReplicaClients } from "./two-replica-clients.js";

// Two clients stand for two replicas starting together against a database an earlier version
// set up.
describe("dropRetiredIndexes on the MongoDB wire server", () => {
  const { first, second, database } = twoReplicaClients("platform_retired_indexes");

  const indexNames = async (collection: string) =>
    (await first.db(database).collection(collection).listIndexes().toArray())
      .map((i) => String(i.name))
      .sort();

  it("when a retired index is there, then it is dropped and every other index stays", async () => {
    const records = first.db(database).collection("records");
    await records.createIndex({ owner: 1 }, { name: "by_owner" });
    await records.createIndex({ owner: 1, createdAt: 1 }, { name: "by_owner_created" });
    await records.createIndex({ code: 1 }, { name: "code_unique", unique: true });

    await dropRetiredIndexes(records, ["by_owner"]);

    expect(await indexNames("records")).toEqual(["_id_", "by_owner_created", "code_unique"]);
  });

  it("when a retired index was never created, or is gone already, then nothing happens", async () => {
    const records = first.db(database).collection("quiet");
    await records.createIndex({ owner: 1 }, { name: "by_owner" });

    await dropRetiredIndexes(records, ["never_made"]);
    await dropRetiredIndexes(records, ["by_owner"]);
    await dropRetiredIndexes(records, ["by_owner"]);

    expect(await indexNames("quiet")).toEqual(["_id_"]);
  });

  it("when two replicas drop the same retired indexes at once, then both start and the indexes are gone", async () => {
    const name = "together";
    await first.db(database).collection(name).createIndex({ a: 1 }, { name: "old_a" });
    await first.db(database).collection(name).createIndex({ b: 1 }, { name: "old_b" });

    const results = await Promise.allSettled([
      dropRetiredIndexes(first.db(database).collection(name), ["old_a", "old_b"]),
      dropRetiredIndexes(second.db(database).collection(name), ["old_a", "old_b"]),
    ]);

    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(await indexNames(name)).toEqual(["_id_"]);
  });

  it("when another replica drops the index between the list and the drop, then the server's refusal is taken as done", async () => {
    const name = "raced";
    const real = first.db(database).collection(name);
    await real.createIndex({ a: 1 }, { name: "old_a" });
    const listed = await real.listIndexes().toArray();
    await second.db(database).collection(name).dropIndex("old_a");
    // The list as it was before the other replica's drop; the drop goes to the server.
    const stale = {
      listIndexes: () => ({ toArray: async () => listed }),
      dropIndex: (index: string) => real.dropIndex(index),
    } as unknown as typeof real;

    await expect(dropRetiredIndexes(stale, ["old_a"])).resolves.toBeUndefined();
    expect(await indexNames(name)).toEqual(["_id_"]);
  });
});
