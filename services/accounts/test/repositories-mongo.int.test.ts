import { createSecretBox, generateSecretsKey, ManualClock, SecretUnreadableError } from "@gateway/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMongoAccountsRepositories } from "../src/adapters/mongo/create-mongo-accounts-repositories.js";
import { ensureAccountsIndexes } from "../src/adapters/mongo/ensure-accounts-indexes.js";
import { createMongoDashboardStores } from "../src/adapters/mongo/mongo-dashboard-stores.js";
import { MongoTerminalRepository } from "../src/adapters/mongo/mongo-terminal-repository.js";
import { createApiKey } from "../src/app/api-keys.js";
import { createMerchant } from "../src/app/merchants.js";
import { seedDemoMerchant } from "../src/app/seed-demo-merchant.js";
import { resolveTerminalCredentials, setTerminal } from "../src/app/terminals.js";
import { describeApiKeyRepositoryContract } from "./contracts/api-key-repository.contract.js";
import { describeDashboardStoresContract } from "./contracts/dashboard-stores.contract.js";
import { describeExchangeRateRepositoryContract } from "./contracts/exchange-rate-repository.contract.js";
import { describeFeePlanRepositoryContract } from "./contracts/fee-plan-repository.contract.js";
import { describeMerchantRepositoryContract } from "./contracts/merchant-repository.contract.js";
import { describeTerminalRepositoryContract } from "./contracts/terminal-repository.contract.js";
import { type MongoTestDatabase, openMongoTestDatabase } from "./support/mongo-test-database.js";

let database: MongoTestDatabase;
beforeAll(async () => {
  database = await openMongoTestDatabase("accounts_repos");
});
afterAll(async () => {
  await database?.dispose();
});

const secretBoxKey = generateSecretsKey();
const secretBox = createSecretBox(secretBoxKey);
const mongoRepos = () => createMongoAccountsRepositories(database.db, { secretBox });

describeMerchantRepositoryContract("MongoDB", async () => (await mongoRepos()).merchants);
describeApiKeyRepositoryContract("MongoDB", async () => (await mongoRepos()).apiKeys);
describeExchangeRateRepositoryContract("MongoDB", async () => (await mongoRepos()).exchangeRates);
describeTerminalRepositoryContract(
  "MongoDB",
  async (box) => (await createMongoAccountsRepositories(database.db, { secretBox: box })).terminals,
);
describeFeePlanRepositoryContract("MongoDB", async () => (await mongoRepos()).feePlans);
describeDashboardStoresContract("MongoDB", async () => createMongoDashboardStores(database.db));

describe("Mongo accounts storage", () => {
  it("when indexes are ensured again, then it succeeds and the unique indexes are in place", async () => {
    await ensureAccountsIndexes(database.db);
    await ensureAccountsIndexes(database.db);
    const keyIndexes = await database.db.collection("api_keys").listIndexes().toArray();
    expect(keyIndexes).toContainEqual(expect.objectContaining({ key: { lookupId: 1 }, unique: true }));
    expect(keyIndexes).toContainEqual(expect.objectContaining({ key: { merchantId: 1, createdAt: -1 } }));
    const rateIndexes = await database.db.collection("exchange_rates").listIndexes().toArray();
    expect(rateIndexes).toContainEqual(
      expect.objectContaining({ key: { merchantId: 1, currency: 1 }, unique: true }),
    );
    const terminalIndexes = await database.db.collection("terminals").listIndexes().toArray();
    expect(terminalIndexes).toContainEqual(
      expect.objectContaining({ key: { merchantId: 1, livemode: 1 }, unique: true }),
    );
  });

  it("when a key is created, then the stored document holds its hash and dates but never the key", async () => {
    const repos = await mongoRepos();
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

  describe("terminal passwords at rest", () => {
    const password = "Plain-Text-Terminal-Password-42";
    let merchantId: string;

    beforeAll(async () => {
      const deps = { repos: await mongoRepos(), clock: new ManualClock() };
      merchantId = (await createMerchant(deps, { name: "Terminal Storage Shop" })).id;
      await setTerminal(deps, {
        merchantId,
        livemode: false,
        baseUrl: "http://127.0.0.1:8080/epg/rest",
        username: "sim-merchant",
        password,
        active: true,
      });
    });

    it("when a terminal is stored, then its document holds the AES-GCM sealed password and key id, never the plaintext", async () => {
      const raw = await database.db.collection("terminals").findOne({ merchantId, livemode: false });
      expect(raw).not.toBeNull();
      const text = JSON.stringify(raw);
      expect(text).not.toContain(password);
      expect(text).not.toContain(Buffer.from(password, "utf8").toString("base64"));
      expect(raw).not.toHaveProperty("password");
      expect(raw!.sealedPassword).toEqual({
        keyId: secretBox.keyId,
        iv: expect.stringMatching(/^[A-Za-z0-9+/]{16}$/),
        tag: expect.stringMatching(/^[A-Za-z0-9+/]{22}==$/),
        ciphertext: expect.any(String),
      });
      expect(raw!.updatedAt).toBeInstanceOf(Date);
    });

    it("when the service restarts with another key, then settings still read but the password fails clearly, naming key ids only", async () => {
      const otherKey = new MongoTerminalRepository(database.db, createSecretBox(generateSecretsKey()));
      expect(await otherKey.find(merchantId, false)).toMatchObject({
        username: "sim-merchant",
        active: true,
      });
      const stored = await otherKey.findWithPassword(merchantId, false);
      expect(() => stored!.openPassword()).toThrow(SecretUnreadableError);
      expect(() => stored!.openPassword()).toThrow(new RegExp(secretBox.keyId));
    });

    it("when the old key is listed as a previous key, then the password still opens after rotation", async () => {
      const rotated = new MongoTerminalRepository(
        database.db,
        createSecretBox(generateSecretsKey(), [secretBoxKey]),
      );
      expect((await rotated.findWithPassword(merchantId, false))?.openPassword()).toBe(password);
    });

    it("when a sealed password is copied onto another merchant's terminal, then it does not open there", async () => {
      const repos = await mongoRepos();
      const deps = { repos, clock: new ManualClock() };
      const otherMerchant = (await createMerchant(deps, { name: "Other Shop" })).id;
      await setTerminal(deps, {
        merchantId: otherMerchant,
        livemode: false,
        baseUrl: "http://127.0.0.1:8080/epg/rest",
        username: "other",
        password: "other-password",
        active: true,
      });
      const victim = await database.db.collection("terminals").findOne({ merchantId });
      await database.db
        .collection("terminals")
        .updateOne({ merchantId: otherMerchant }, { $set: { sealedPassword: victim!.sealedPassword } });
      const stored = await repos.terminals.findWithPassword(otherMerchant, false);
      expect(() => stored!.openPassword()).toThrow(SecretUnreadableError);
    });
  });

  it("when the demo is seeded again after a restart with a new random key, then its test terminal is sealed again and resolves", async () => {
    const clock = new ManualClock();
    const simulator = {
      baseUrl: "http://localhost:8080/epg/rest",
      username: "sim-merchant",
      password: "sim-password",
    };
    const firstRun = await createMongoAccountsRepositories(database.db, {
      secretBox: createSecretBox(generateSecretsKey()),
    });
    expect((await seedDemoMerchant(firstRun, clock, { testTerminal: simulator })).testTerminal).toBe(
      "created",
    );
    const secondRun = await createMongoAccountsRepositories(database.db, {
      secretBox: createSecretBox(generateSecretsKey()),
    });
    expect((await seedDemoMerchant(secondRun, clock, { testTerminal: simulator })).testTerminal).toBe(
      "updated",
    );
    expect((await seedDemoMerchant(secondRun, clock, { testTerminal: simulator })).testTerminal).toBe(
      "unchanged",
    );
    expect(
      await resolveTerminalCredentials(
        { repos: secondRun, clock },
        { merchantId: "mer_demo", livemode: false },
      ),
    ).toEqual(simulator);
  });
});
