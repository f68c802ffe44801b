import {
  MongoClient,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type Db,
} from "mongodb";
import { GatewayError } from "./errors/gateway-error.js";

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

/** True for failures that say "the database is unreachable right now", not "the request is wrong". */
export function isMongoUnavailable(err: unknown): boolean {
  if (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError ||
    err instanceof MongoServerClosedError
  ) {
    return true;
  }
  return err instanceof MongoError && (err.hasErrorLabel("RetryableWriteError") || err.hasErrorLabel("ResetPool"));
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
        throw new GatewayError("SERVICE_UNAVAILABLE", `The ${service} database is temporarily unavailable.`, { cause: err });
      }
      throw err;
    }
  };
}
