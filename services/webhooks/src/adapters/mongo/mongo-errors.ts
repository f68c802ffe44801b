import { GatewayError } from "@gateway/platform";
import {
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from "mongodb";

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
 * Runs one database operation. An unreachable database becomes SERVICE_UNAVAILABLE (retryable)
 * so driver errors never reach use cases; anything else is rethrown as is.
 */
export async function runMongo<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (isMongoUnavailable(err)) {
      throw new GatewayError("SERVICE_UNAVAILABLE", "The webhooks database is temporarily unavailable.", { cause: err });
    }
    throw err;
  }
}
