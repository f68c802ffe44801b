import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMongoAccountsRepositories } from "../src/adapters/mongo/create-mongo-accounts-repositories.js";
import { ensureAccountsIndexes } from "../src/adapters/mongo/ensure-accounts-indexes.js";
import { createApiKey } from "../src/app/api-keys.js";
import { createMerchant } from "../src/app/merchants.js";
import { ManualClock } from "@gateway/platform";
import { describeApiKeyRepositoryContract } from "./contracts/api-key-repository.contract.js";
import { describeExchangeRateRepositoryContract } from "./contracts/exchange-rate-repository.contract.js";
import { describeMerchantRepositoryContract } from "./contracts/merchant-repository.contract.js";
import { openMongoTestDatabase, type MongoTestDatabase } from "./support/mongo-test-database.js";

let database: MongoTestDatabase;
beforeAll(async () => {
  database = await openMongoTestDatabase("accounts_repos");
});
afterAll(async () => {
  await database?.dispose();
});

describeMerchantRepositoryContract("MongoDB", async () => (await createMongoAccountsRepositories(database.db)).merchants);
describeApiKeyRepositoryContract("MongoDB", async () => (await createMongoAccountsRepositories(database.db)).apiKeys);
describeExchangeRateRepositoryContract("MongoDB", async () => (await createMongoAccountsRepositories(database.db)).exchangeRates);

describe("Mongo accounts storage", () => {
  it("when indexes are ensured again, then it succeeds and the unique indexes are in place", async () => {
    await ensureAccountsIndexes(database.db);
    await ensureAccountsIndexes(database.db);
    const keyIndexes = await database.db.collection("api_keys").listIndexes().toArray();
    expect(keyIndexes).toContainEqual(expect.objectContaining({ key: { lookupId: 1 }, unique: true }));
    expect(keyIndexes).toContainEqual(expect.objectContaining({ key: { merchantId: 1, createdAt: -1 } }));
    const rateIndexes = await database.db.collection("exchange_rates").listIndexes().toArray();
    expect(rateIndexes).toContainEqual(expect.objectContaining({ key: { merchantId: 1, currency: 1 }, unique: true }));
  });

  it("when a key is created, then the stored document holds its hash and dates but never the key", async () => {
    const repos = await createMongoAccountsRepositories(database.db);
    const deps = { repos, clock: new ManualClock() };
    const merchant = await createMerchant(deps, { name: "Storage Shop" });
    const { apiKey, secret } = await createApiKey(deps, {
      merchantId: merchant.id,
      livemode: false,
      expiresAt: new Date("2027-01-01T00:00:00.000Z"),
    });
    const raw = await database.db.collection("api_keys").findOne({ _id: apiKey.id as never });
    expect(raw).not.toBeNull();
    expect(JSON.stringify(raw)).not.toContain(secret);
    expect(JSON.stringify(raw)).not.toContain(secret.slice("sk_test_".length + 12));
    expect(raw!.createdAt).toBeInstanceOf(Date);
    expect(raw!.expiresAt).toBeInstanceOf(Date);
    expect(raw!.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
