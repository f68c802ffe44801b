import { createQueryPlanDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { ensureAccountsIndexes } from "../src/adapters/mongo/ensure-accounts-indexes.js";
import { MongoExchangeRateRepository } from "../src/adapters/mongo/mongo-exchange-rate-repository.js";
import { describeExchangeRateRepositoryContract } from "./contracts/exchange-rate-repository.contract.js";

// Every query the exchange-rate repository sends while its contract runs (current rates, the
// merchant's list and the history, whole or per currency) is recorded, then explained: pushed
// down on FerretDB, no collection scan on MongoDB, finds bounded (see the sessions twin).
const plans = createQueryPlanDb("accounts_plans");
afterAll(() => plans.close());

describeExchangeRateRepositoryContract("MongoDB wire server, queries recorded", async () => {
  const db = await plans.db();
  await ensureAccountsIndexes(db);
  return new MongoExchangeRateRepository(db);
});

describe("query plans of the accounts exchange-rate repository", () => {
  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    expect(plans.patterns().length).toBeGreaterThan(3);
    expect(await plans.failures()).toEqual([]);
  });
});
