import { ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsRepositories } from "../src/app/ports.js";
import { authenticateApiKey } from "../src/app/authenticate-api-key.js";
import { revokeApiKey } from "../src/app/api-keys.js";
import { seedDemoMerchant } from "../src/app/seed-demo-merchant.js";
import { generateApiKey } from "../src/domain/api-key.js";

describe("seeding the demo merchant", () => {
  let clock: ManualClock;
  let repos: AccountsRepositories;
  beforeEach(() => {
    clock = new ManualClock();
    repos = createMemoryAccountsRepositories();
  });

  it("when seeded for the first time without a key, then a verified Demo Shop and a working random test key exist", async () => {
    const seeded = await seedDemoMerchant(repos, clock);
    expect(seeded).toEqual({ merchantId: "mer_demo", testKey: expect.stringMatching(/^sk_test_[0-9A-Za-z]{44}$/), created: true });
    expect(await repos.merchants.findById("mer_demo")).toEqual({ id: "mer_demo", name: "Demo Shop", verified: true, createdAt: clock.now() });
    expect((await authenticateApiKey({ repos, clock }, seeded.testKey)).scope).toEqual({ merchantId: "mer_demo", livemode: false });
  });

  it("when seeded again without a key, then a fresh key is returned and the earlier one still works", async () => {
    const first = await seedDemoMerchant(repos, clock);
    const second = await seedDemoMerchant(repos, clock);
    expect(second.created).toBe(false);
    expect(second.testKey).not.toBe(first.testKey);
    for (const key of [first.testKey, second.testKey]) {
      expect((await authenticateApiKey({ repos, clock }, key)).scope.merchantId).toBe("mer_demo");
    }
  });

  it("when a test key is given, then it is imported hashed and works", async () => {
    const testKey = generateApiKey(false).text;
    expect(await seedDemoMerchant(repos, clock, { testKey })).toEqual({ merchantId: "mer_demo", testKey, created: true });
    const keys = await repos.apiKeys.listByMerchant("mer_demo");
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(testKey);
    expect((await authenticateApiKey({ repos, clock }, testKey)).scope).toEqual({ merchantId: "mer_demo", livemode: false });
  });

  it("when the same test key is given on every start, then it is stored once", async () => {
    const testKey = generateApiKey(false).text;
    await seedDemoMerchant(repos, clock, { testKey });
    expect(await seedDemoMerchant(repos, clock, { testKey })).toEqual({ merchantId: "mer_demo", testKey, created: false });
    expect(await repos.apiKeys.listByMerchant("mer_demo")).toHaveLength(1);
  });

  it("when concurrent starts seed at once, then one merchant is created and every key works", async () => {
    const results = await Promise.all([seedDemoMerchant(repos, clock), seedDemoMerchant(repos, clock)]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    for (const { testKey } of results) expect((await authenticateApiKey({ repos, clock }, testKey)).keyId).toMatch(/^key_/);
  });

  it.each([
    ["a live key", () => generateApiKey(true).text],
    ["a malformed key", () => "sk_test_tooshort"],
  ])("when the given key is %s, then seeding fails with a clear error that does not quote the key", async (_why, make) => {
    const testKey = make();
    const err = await seedDemoMerchant(repos, clock, { testKey }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/GATEWAY_DEMO_TEST_KEY.*sk_test_/);
    expect((err as Error).message).not.toContain(testKey);
    expect(await repos.merchants.findById("mer_demo")).toBeUndefined();
  });

  it("when the given key shares its lookup id with another stored key, then seeding fails clearly", async () => {
    const demoKey = generateApiKey(false);
    // Same lookup id, different secret part: a different key sharing the indexed lookup id.
    const otherKey = demoKey.text.slice(0, 20) + (demoKey.text.slice(20, 21) === "a" ? "b" : "a") + demoKey.text.slice(21);
    await seedDemoMerchant(repos, clock, { testKey: otherKey });
    await expect(seedDemoMerchant(repos, clock, { testKey: demoKey.text })).rejects.toThrow(/shares its lookup id/);
  });

  it("when the given key was revoked by an operator, then seeding fails instead of printing a dead key", async () => {
    const testKey = generateApiKey(false).text;
    await seedDemoMerchant(repos, clock, { testKey });
    const [stored] = await repos.apiKeys.listByMerchant("mer_demo");
    await revokeApiKey({ repos, clock }, stored!.id);
    await expect(seedDemoMerchant(repos, clock, { testKey })).rejects.toThrow(/was revoked/);
  });

  it("when the demo merchant exists but is unverified, then seeding verifies it", async () => {
    await repos.merchants.insert({ id: "mer_demo", name: "Demo Shop", verified: false, createdAt: clock.now() });
    expect((await seedDemoMerchant(repos, clock)).created).toBe(false);
    expect((await repos.merchants.findById("mer_demo"))?.verified).toBe(true);
  });
});
