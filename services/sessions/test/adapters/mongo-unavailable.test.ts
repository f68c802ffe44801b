import { DocumentWriteLock, GatewayError } from "@gateway/platform";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import {
  MongoSessionRepository,
  SESSION_WRITE_LOCKS_COLLECTION,
  SESSIONS_COLLECTION,
} from "../../src/adapters/mongo/mongo-session-repository.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

// Nothing listens on port 1: every operation fails server selection, as with a database down.
const client = new MongoClient("mongodb://127.0.0.1:1", {
  serverSelectionTimeoutMS: 200,
  connectTimeoutMS: 200,
});
const repo = new MongoSessionRepository(
  client.db("unreachable").collection(SESSIONS_COLLECTION, { useBigInt64: true }),
  new DocumentWriteLock(client.db("unreachable").collection(SESSION_WRITE_LOCKS_COLLECTION)),
);

afterAll(async () => {
  await client.close();
});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

describe("MongoSessionRepository with the database down", () => {
  it("when the database cannot be reached, then every operation fails SERVICE_UNAVAILABLE (retryable)", async () => {
    const scope = newScope();
    expect(await reasonOf(repo.insert(sessionFixture(scope)))).toBe("SERVICE_UNAVAILABLE");
    expect(await reasonOf(repo.findById(scope, "ps_x"))).toBe("SERVICE_UNAVAILABLE");
    expect(await reasonOf(repo.findByReference(scope, "r"))).toBe("SERVICE_UNAVAILABLE");
    expect(await reasonOf(repo.list(scope, {}, { limit: 10 }))).toBe("SERVICE_UNAVAILABLE");
    expect(await reasonOf(repo.updateIf(sessionFixture(scope), { status: "CANCELED" }))).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });
});
