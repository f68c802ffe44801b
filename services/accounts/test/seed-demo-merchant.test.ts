import { ManualClock, SecretUnreadableError } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import { revokeApiKey } from "../src/app/api-keys.js";
import { authenticateApiKey } from "../src/app/authenticate-api-key.js";
import type { AccountsRepositories } from "../src/app/ports.js";
import { seedDemoMerchant } from "../src/app/seed-demo-merchant.js";
import { resolveTerminalCredentials, setTerminal } from "../src/app/terminals.js";
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
    expect(seeded).toEqual({
      merchantId: "mer_demo",
      testKey: expect.stringMatching(/^sk_test_[0-9A-Za-z]{44}$/),
      created: true,
    });
    expect(await repos.merchants.findById("mer_demo")).toEqual({
      id: "mer_demo",
      name: "Demo Shop",
      verified: true,
      createdAt: clock.now(),
    });
    expect((await authenticateApiKey({ repos, clock }, seeded.testKey)).scope).toEqual({
      merchantId: "mer_demo",
      livemode: false,
    });
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
    expect(await seedDemoMerchant(repos, clock, { testKey })).toEqual({
      merchantId: "mer_demo",
      testKey,
      created: true,
    });
    const keys = await repos.apiKeys.listByMerchant("mer_demo");
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(testKey);
    expect((await authenticateApiKey({ repos, clock }, testKey)).scope).toEqual({
      merchantId: "mer_demo",
      livemode: false,
    });
  });

  it("when the same test key is given on every start, then it is stored once", async () => {
    const testKey = generateApiKey(false).text;
    await seedDemoMerchant(repos, clock, { testKey });
    expect(await seedDemoMerchant(repos, clock, { testKey })).toEqual({
      merchantId: "mer_demo",
      testKey,
      created: false,
    });
    expect(await repos.apiKeys.listByMerchant("mer_demo")).toHaveLength(1);
  });

  it("when concurrent starts seed at once, then one merchant is created and every key works", async () => {
    const results = await Promise.all([seedDemoMerchant(repos, clock), seedDemoMerchant(repos, clock)]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    for (const { testKey } of results)
      expect((await authenticateApiKey({ repos, clock }, testKey)).keyId).toMatch(/^key_/);
  });

  it.each([
    ["a live key", () => generateApiKey(true).text],
    ["a malformed key", () => "sk_test_tooshort"],
  ])(
    "when the given key is %s, then seeding fails with a clear error that does not quote the key",
    async (_why, make) => {
      const testKey = make();
      const err = await seedDemoMerchant(repos, clock, { testKey }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/GATEWAY_DEMO_TEST_KEY.*sk_test_/);
      expect((err as Error).message).not.toContain(testKey);
      expect(await repos.merchants.findById("mer_demo")).toBeUndefined();
    },
  );

  it("when the given key shares its lookup id with another stored key, then seeding fails clearly", async () => {
    const demoKey = generateApiKey(false);
    // Same lookup id, different secret part: a different key sharing the indexed lookup id.
    const otherKey =
      demoKey.text.slice(0, 20) + (demoKey.text.slice(20, 21) === "a" ? "b" : "a") + demoKey.text.slice(21);
    await seedDemoMerchant(repos, clock, { testKey: otherKey });
    await expect(seedDemoMerchant(repos, clock, { testKey: demoKey.text })).rejects.toThrow(
      /shares its lookup id/,
    );
  });

  it("when the given key was revoked by an operator, then seeding fails instead of printing a dead key", async () => {
    const testKey = generateApiKey(false).text;
    await seedDemoMerchant(repos, clock, { testKey });
    const [stored] = await repos.apiKeys.listByMerchant("mer_demo");
    await revokeApiKey({ repos, clock }, stored!.id);
    await expect(seedDemoMerchant(repos, clock, { testKey })).rejects.toThrow(/was revoked/);
  });

  it("when the demo merchant exists but is unverified, then seeding verifies it", async () => {
    await repos.merchants.insert({
      id: "mer_demo",
      name: "Demo Shop",
      verified: false,
      createdAt: clock.now(),
    });
    expect((await seedDemoMerchant(repos, clock)).created).toBe(false);
    expect((await repos.merchants.findById("mer_demo"))?.verified).toBe(true);
  });

  describe("with a test terminal", () => {
    const simulator = {
      baseUrl: "http://localhost:8080/epg/rest",
      username: "sim-merchant",
      password: "sim-password",
    };

    it("when seeded with a terminal, then the demo merchant's active test terminal resolves to it", async () => {
      const seeded = await seedDemoMerchant(repos, clock, { testTerminal: simulator });
      expect(seeded.testTerminal).toBe("created");
      expect(
        await resolveTerminalCredentials({ repos, clock }, { merchantId: "mer_demo", livemode: false }),
      ).toEqual(simulator);
      expect(await repos.terminals.find("mer_demo", true)).toBeUndefined();
    });

    it("when seeded again with the same terminal, then it is left as it is (same update time)", async () => {
      await seedDemoMerchant(repos, clock, { testTerminal: simulator });
      const before = await repos.terminals.find("mer_demo", false);
      clock.advance(60_000);
      expect((await seedDemoMerchant(repos, clock, { testTerminal: simulator })).testTerminal).toBe(
        "unchanged",
      );
      expect(await repos.terminals.find("mer_demo", false)).toEqual(before);
    });

    it.each([
      ["URL", { baseUrl: "http://127.0.0.1:9999/epg/rest" }],
      ["user name", { username: "other-user" }],
      ["password", { password: "other-password" }],
    ])("when seeded again with another %s, then the terminal is updated", async (_what, change) => {
      await seedDemoMerchant(repos, clock, { testTerminal: simulator });
      clock.advance(60_000);
      expect(
        (await seedDemoMerchant(repos, clock, { testTerminal: { ...simulator, ...change } })).testTerminal,
      ).toBe("updated");
      expect(
        await resolveTerminalCredentials({ repos, clock }, { merchantId: "mer_demo", livemode: false }),
      ).toEqual({ ...simulator, ...change });
      expect((await repos.terminals.find("mer_demo", false))?.updatedAt).toEqual(clock.now());
    });

    it("when an operator deactivated the demo terminal, then the next start activates it again", async () => {
      await seedDemoMerchant(repos, clock, { testTerminal: simulator });
      await setTerminal(
        { repos, clock },
        { merchantId: "mer_demo", livemode: false, ...simulator, active: false },
      );
      expect((await seedDemoMerchant(repos, clock, { testTerminal: simulator })).testTerminal).toBe(
        "updated",
      );
      expect((await repos.terminals.find("mer_demo", false))?.active).toBe(true);
    });

    it("when the stored password was sealed with a key this run does not have, then the terminal is set again", async () => {
      await seedDemoMerchant(repos, clock, { testTerminal: simulator });
      const terminals = repos.terminals;
      // What a restart with a new random key looks like: settings readable, password not.
      repos.terminals = {
        upsert: (terminal, password) => terminals.upsert(terminal, password),
        find: (merchantId, livemode) => terminals.find(merchantId, livemode),
        findWithPassword: async (merchantId, livemode) => {
          const stored = await terminals.findWithPassword(merchantId, livemode);
          return (
            stored && {
              terminal: stored.terminal,
              openPassword: () => {
                throw new SecretUnreadableError(
                  "secret sealed with key 0123456789abcdef, which is not configured",
                );
              },
            }
          );
        },
      };
      expect((await seedDemoMerchant(repos, clock, { testTerminal: simulator })).testTerminal).toBe(
        "updated",
      );
      expect((await terminals.findWithPassword("mer_demo", false))?.openPassword()).toBe("sim-password");
    });

    it("when the terminal settings are invalid, then seeding fails before anything is stored and does not quote the password", async () => {
      const password = "Secret-Demo-Password";
      const err = await seedDemoMerchant(repos, clock, {
        testTerminal: { baseUrl: "not a url", username: "", password },
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(
        /GATEWAY_DEMO_TERMINAL_URL.*base_url must be an absolute http or https URL.*username is required/,
      );
      expect((err as Error).message).not.toContain(password);
      expect(await repos.merchants.findById("mer_demo")).toBeUndefined();
    });

    it("when no terminal is asked for, then the result says nothing about one and none is made", async () => {
      const seeded = await seedDemoMerchant(repos, clock);
      expect(seeded).not.toHaveProperty("testTerminal");
      expect(await repos.terminals.find("mer_demo", false)).toBeUndefined();
    });
  });
});
