import { setTimeout as sleep } from "node:timers/promises";
import type { MongoClient } from "mongodb";
import { describe, expect, it } from "vitest";
import { DocumentWriteLock, GatewayError, type WriteLockDocument } from "../src/index.js";
import { twoReplicaClients } from "./two-replica-clients.js";

interface Counter {
  _id: string;
  version: number;
  writers: string[];
}

// Two locks on two connections stand for two replicas: each queues only its own writers in
// memory, so exclusion between them rests on the lock documents in the MongoDB wire server.
describe("DocumentWriteLock on the MongoDB wire server", () => {
  const { first, second, database } = twoReplicaClients("platform_write_lock");
  const locksOf = (client: MongoClient) => client.db(database).collection<WriteLockDocument>("locks");
  const countersOf = (client: MongoClient) => client.db(database).collection<Counter>("counters");

  it("when two replicas read-modify-write one document at once, then no write is lost and they never overlap", async () => {
    const replicas = [first, second].map((t) => ({
      lock: new DocumentWriteLock(locksOf(t), { waitMs: 20_000 }),
      counters: countersOf(t),
    }));
    await replicas[0]!.counters.insertOne({ _id: "c1", version: 0, writers: [] });
    let inside = 0;
    let most = 0;
    const write = (r: (typeof replicas)[number], name: string) =>
      r.lock.run("c1", async () => {
        inside++;
        most = Math.max(most, inside);
        const doc = await r.counters.findOne({ _id: "c1" });
        await sleep(2);
        // The whole document written back, as FerretDB's update does: a race would erase a writer.
        await r.counters.replaceOne(
          { _id: "c1" },
          { version: doc!.version + 1, writers: [...doc!.writers, name] },
        );
        inside--;
      });
    const names = Array.from({ length: 12 }, (_, i) => `w${i}`);
    await Promise.all(names.map((name, i) => write(replicas[i % 2]!, name)));
    const final = await replicas[0]!.counters.findOne({ _id: "c1" });
    expect(most).toBe(1);
    expect(final!.version).toBe(12);
    expect([...final!.writers].sort()).toEqual([...names].sort());
    expect(await locksOf(first).countDocuments({})).toBe(0);
  });

  it("when a lock's holder died and its time ran out, then the next writer takes it over", async () => {
    await locksOf(first).insertOne({ _id: "c2", token: "dead", until: new Date(Date.now() - 1) });
    const lock = new DocumentWriteLock(locksOf(second), { waitMs: 500 });
    expect(await lock.run("c2", async () => "written")).toBe("written");
    expect(await locksOf(first).findOne({ _id: "c2" })).toBeNull();
  });

  it("when a live holder keeps the lock past the wait, then the writer gets a retryable error and writes nothing", async () => {
    await locksOf(first).insertOne({ _id: "c3", token: "alive", until: new Date(Date.now() + 60_000) });
    const lock = new DocumentWriteLock(locksOf(second), { waitMs: 100 });
    let wrote = false;
    const error = await lock
      .run("c3", async () => {
        wrote = true;
      })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).reason).toBe("SERVICE_UNAVAILABLE");
    expect(wrote).toBe(false);
    expect((await locksOf(first).findOne({ _id: "c3" }))?.token).toBe("alive");
  });

  it("when the write fails, then the lock is released all the same", async () => {
    const lock = new DocumentWriteLock(locksOf(first));
    await expect(lock.run("c4", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await locksOf(first).findOne({ _id: "c4" })).toBeNull();
  });
});
