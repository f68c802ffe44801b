import type { Db, MongoClient } from "mongodb";
import { GatewayError } from "./errors/gateway-error.js";

/**
 * One MongoClient per process, reused by every repository. Short server selection so a
 * missing database fails readiness quickly instead of hanging requests.
 * The driver is loaded here, on first use, not when @gateway/platform is imported: processes
 * without a database (the edge, the EPG simulator) never load it (about 11 MiB of RSS each).
 */
export async function connectMongo(url: string, appName: string): Promise<MongoClient> {
  const { MongoClient } = await import("mongodb");
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

/** Driver error classes that mean "cannot reach the database" (their subclasses too). */
const UNAVAILABLE_ERROR_CLASSES = new Set([
  "MongoNetworkError",
  "MongoServerSelectionError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoServerClosedError",
]);

/**
 * Names of the classes an error is an instance of, from its own class up. Matching by class
 * name instead of `instanceof` keeps the driver unloaded in processes that never connect (an
 * error from the driver implies the driver is loaded anyway).
 */
function classNamesOf(err: object): Set<string> {
  const names = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(err) as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string") names.add(name);
  }
  return names;
}

/** True for failures that say "the database is unreachable right now", not "the request is wrong". */
export function isMongoUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const classes = classNamesOf(err);
  if ([...UNAVAILABLE_ERROR_CLASSES].some((name) => classes.has(name))) return true;
  const labelled = err as Error & { hasErrorLabel?: (label: string) => boolean };
  return (
    classes.has("MongoError") &&
    typeof labelled.hasErrorLabel === "function" &&
    (labelled.hasErrorLabel("RetryableWriteError") || labelled.hasErrorLabel("ResetPool"))
  );
}

/**
 * A `runMongo(operation)` for one service's repositories. An unreachable database becomes
 * SERVICE_UNAVAILABLE (retryable, answered 503) so driver errors never reach use cases; anything
 * else is rethrown as is and ends as an internal error.
 */
export function mongoOperationRunner(service: string): <T>(operation: () => Promise<T>) => Promise<T> {
  return async (operation) => {
    try {
      return await operation();
    } catch (err) {
      if (isMongoUnavailable(err)) {
        throw new GatewayError("SERVICE_UNAVAILABLE", `The ${service} database is temporarily unavailable.`, {
          cause: err,
        });
      }
      throw err;
    }
  };
}
