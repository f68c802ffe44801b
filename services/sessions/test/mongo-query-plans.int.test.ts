import { createQueryPlanDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMongoSessionRepository,
  SESSIONS_COLLECTION,
} from "../src/adapters/mongo/mongo-session-repository.js";
import { createMongoSweepLocks } from "../src/adapters/mongo/mongo-sweep-locks.js";
import { sessionRepositoryContract } from "./contracts/session-repository.contract.js";

// Every query the session repository sends while its whole contract runs is recorded, then
// explained: on FerretDB it must be pushed down to the storage, on MongoDB it must not scan the
// collection; finds must be bounded by a limit. A new query shaped for no index fails here.
const plans = createQueryPlanDb("sessions_plans");
afterAll(() => plans.close());
const db = () => plans.db();

sessionRepositoryContract(
  "MongoDB wire server, queries recorded",
  async () => createMongoSessionRepository(await db()),
  async (sessionId) => {
    const raw = await (await db()).collection(SESSIONS_COLLECTION).findOne({ id: sessionId });
    return ((raw?.outbox ?? []) as Array<{ eventId: string; publishedAt: Date | null }>).map((e) => ({
      eventId: e.eventId,
      published: e.publishedAt !== null,
    }));
  },
);

/**
 * The backfill of fields older documents lack (mongo-session-repository.ts) runs at start, and
 * for the next due time also with the sweeper's look by dates (at start and once an hour), and
 * finds nothing once an older version's documents have them: `$exists: false` cannot be pushed
 * down, and need not.
 */
function isBackfill(shape: string): boolean {
  return /^sessions (update|find) \{(checkoutTokens|nextDueScheduled|outboxUnpublished):\{\$exists:\?\}/.test(
    shape,
  );
}

describe("query plans of the sessions service's Mongo repositories", () => {
  it("when the sweep locks are used, then their queries are recorded too", async () => {
    const locks = await createMongoSweepLocks(await db());
    const now = new Date();
    await locks.acquire("ses_plan", "a", new Date(now.getTime() - 1), new Date(now.getTime() - 2));
    // Held by "a" until a moment ago: "b" finds it ran out and takes it over (findOne, deleteOne).
    expect(await locks.acquire("ses_plan", "b", new Date(now.getTime() + 60_000), now)).toBe(true);
    await locks.release("ses_plan", "b");
  });

  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    // The contract touches every method: insert, the four lookups, list, updateIf, findDue, the outbox.
    expect(plans.patterns().length).toBeGreaterThan(8);
    const failures = await plans.failures(isBackfill);
    expect(failures).toEqual([]);
  });
});
