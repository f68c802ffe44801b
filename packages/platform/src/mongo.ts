import { MongoClient, type Db } from "mongodb";

/**
 * One MongoClient per process, reused by every repository. Short server selection so a
 * missing database fails readiness quickly instead of hanging requests.
 */
export async function connectMongo(url: string, appName: string): Promise<MongoClient> {
  const client = new MongoClient(url, {
    appName,
    serverSelectionTimeoutMS: 5_000,
    connectTimeoutMS: 5_000,
    retryWrites: false, // FerretDB and standalone servers have no retryable writes; our writes are idempotent.
  });
  await client.connect();
  return client;
}

/** Readiness probe for a database: a ping round trip. */
export async function pingMongo(db: Db): Promise<void> {
  await db.command({ ping: 1 });
}

/** Mongo duplicate-key error (E11000), for adapters that turn it into a domain outcome. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === 11000;
}
