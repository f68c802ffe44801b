import { createQueryPlanDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createMongoRefundRepository } from "../src/adapters/mongo/mongo-refund-repository.js";
import { refundRepositoryContract } from "./contracts/refund-repository.contract.js";

// Every query the refund repository sends while its contract runs is recorded, then explained:
// pushed down on FerretDB, no collection scan on MongoDB, finds bounded (see the sessions twin).
const plans = createQueryPlanDb("refunds_plans");
afterAll(() => plans.close());

refundRepositoryContract("MongoDB wire server, queries recorded", async () =>
  createMongoRefundRepository(await plans.db()),
);

/**
 * The one-off backfill of the outbox flag (platform's outbox-flag.ts) runs once per start and
 * finds nothing after the first: `$exists: false` cannot be pushed down, and need not.
 */
function isStartupBackfill(shape: string): boolean {
  return /^refunds update \{outboxUnpublished:\{\$exists:\?\}/.test(shape);
}

describe("query plans of the refunds service's Mongo repository", () => {
  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    expect(await plans.failures(isStartupBackfill)).toEqual([]);
  });
});
