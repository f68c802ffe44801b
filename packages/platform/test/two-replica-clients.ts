import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll } from "vitest";

/**
 * Two clients on two connections to the MongoDB wire server, standing for two replicas of a
 * service, and a fresh database (`<prefix>_<random>`) they share, dropped after the file's tests.
 * Call at the top of a describe block.
 */
export function twoReplicaClients(prefix: string): {
  first: MongoClient;
  second: MongoClient;
  database: string;
} {
  const url = process.env.MONGODB_URL ?? "mongodb://127.0.0.1:27017";
  const database = `${prefix}_${randomBytes(6).toString("hex")}`;
  // retryWrites off: FerretDB has no retryable writes.
  const first = new MongoClient(url, { retryWrites: false });
  const second = new MongoClient(url, { retryWrites: false });
  beforeAll(async () => {
    await Promise.all([first.connect(), second.connect()]);
  });
  afterAll(async () => {
    await first.db(database).dropDatabase();
    await Promise.all([first.close(), second.close()]);
  });
  return { first, second, database };
}
