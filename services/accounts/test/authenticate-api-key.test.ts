import { GatewayError, ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { createApiKey, revokeApiKey } from "../src/app/api-keys.js";
import { authenticateApiKey } from "../src/app/authenticate-api-key.js";
import { createMerchant, verifyMerchant } from "../src/app/merchants.js";
import type { Merchant } from "../src/domain/merchant.js";
import { countApiKeyCalls } from "./support/counting-repositories.js";

const HOUR = 3_600_000;

async function expectUnauthorized(promise: Promise<unknown>): Promise<GatewayError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  const gatewayError = err as GatewayError;
  // The same reason, message and (empty) metadata for every failure: no oracle.
  expect(gatewayError.reason).toBe("UNAUTHORIZED");
  expect(gatewayError.message).toBe("Invalid API key.");
  expect(gatewayError.metadata).toEqual({});
  expect(gatewayError.violations).toEqual([]);
  return gatewayError;
}

describe("authenticating an API key", () => {
  let clock: ManualClock;
  let deps: AccountsDeps;
  let merchant: Merchant;

  beforeEach(async () => {
    clock = new ManualClock();
    deps = { repos: createMemoryAccountsRepositories(), clock };
    merchant = await createMerchant(deps, { name: "Shop" });
  });

  it("when a test key is presented, then the merchant is returned in test mode", async () => {
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    expect(await authenticateApiKey(deps, secret)).toEqual({
      scope: { merchantId: merchant.id, livemode: false },
      keyId: apiKey.id,
    });
  });

  it("when a live key of a verified merchant is presented, then the merchant is returned in live mode", async () => {
    await verifyMerchant(deps, merchant.id);
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: true });
    expect(await authenticateApiKey(deps, secret)).toEqual({
      scope: { merchantId: merchant.id, livemode: true },
      keyId: apiKey.id,
    });
  });

  it.each(["", "Bearer sk_test_x", "sk_test_short", "not a key at all", `sk_test_${"a".repeat(45)}`])(
    "when the key is malformed (%j), then it is unauthorized without a database lookup",
    async (text) => {
      const counted = countApiKeyCalls(deps.repos);
      await expectUnauthorized(authenticateApiKey({ ...deps, repos: counted.repos }, text));
      expect(counted.calls()).toBe(0);
    },
  );

  it("when a well-formed key was never issued, then it is unauthorized", async () => {
    await expectUnauthorized(authenticateApiKey(deps, `sk_test_${"A".repeat(12)}${"b".repeat(32)}`));
  });

  it("when the lookup id exists but the secret part is wrong, then it is unauthorized", async () => {
    const { secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    const lastChar = secret.at(-1) === "a" ? "b" : "a";
    await expectUnauthorized(authenticateApiKey(deps, secret.slice(0, -1) + lastChar));
  });

  it("when a test key is presented with the live prefix, then it is unauthorized", async () => {
    const { secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    await expectUnauthorized(authenticateApiKey(deps, secret.replace("sk_test_", "sk_live_")));
  });

  it("when the key is revoked, then it is unauthorized", async () => {
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    await revokeApiKey(deps, apiKey.id);
    await expectUnauthorized(authenticateApiKey(deps, secret));
  });

  it("when the key's expiry time passes, then it is unauthorized from that instant on", async () => {
    const { secret } = await createApiKey(deps, {
      merchantId: merchant.id,
      livemode: false,
      expiresAt: new Date(clock.now().getTime() + HOUR),
    });
    clock.advance(HOUR - 1);
    expect((await authenticateApiKey(deps, secret)).scope.merchantId).toBe(merchant.id);
    clock.advance(1);
    await expectUnauthorized(authenticateApiKey(deps, secret));
  });

  it("when a key is rejected, then the reason stays in the in-process cause only", async () => {
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    await revokeApiKey(deps, apiKey.id);
    const err = await expectUnauthorized(authenticateApiKey(deps, secret));
    expect((err.cause as Error).message).toContain("revoked");
    expect((err.cause as Error).message).not.toContain(secret);
  });
});
