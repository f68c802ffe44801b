import { ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { createApiKey, revokeApiKey } from "../src/app/api-keys.js";
import { createMerchant, verifyMerchant } from "../src/app/merchants.js";
import type { Merchant } from "../src/domain/merchant.js";
import { expectGatewayError } from "./support/expect-gateway-error.js";

describe("API keys", () => {
  let clock: ManualClock;
  let deps: AccountsDeps;
  let merchant: Merchant;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 10));
    deps = { repos: createMemoryAccountsRepositories(), clock };
    merchant = await createMerchant(deps, { name: "Shop" });
  });

  it("when a test key is created, then the secret is returned once and the stored record holds no trace of it", async () => {
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{44}$/);
    expect(apiKey).toMatchObject({
      merchantId: merchant.id,
      livemode: false,
      prefix: secret.slice(0, 20),
      createdAt: clock.now(),
    });
    expect(apiKey.id).toMatch(/^key_/);
    const stored = await deps.repos.apiKeys.findById(apiKey.id);
    expect(stored).toEqual(apiKey);
    const storedText = JSON.stringify(stored);
    expect(storedText).not.toContain(secret);
    expect(storedText).not.toContain(secret.slice(20));
  });

  it("when a live key is asked for an unverified merchant, then it is FORBIDDEN and nothing is stored", async () => {
    const err = await expectGatewayError(
      createApiKey(deps, { merchantId: merchant.id, livemode: true }),
      "FORBIDDEN",
    );
    expect(err.message).toBe("Live API keys require a verified merchant.");
    expect(await deps.repos.apiKeys.listByMerchant(merchant.id)).toEqual([]);
  });

  it("when a live key is asked for a verified merchant, then it is a sk_live_ key", async () => {
    await verifyMerchant(deps, merchant.id);
    const { apiKey, secret } = await createApiKey(deps, { merchantId: merchant.id, livemode: true });
    expect(secret).toMatch(/^sk_live_/);
    expect(apiKey.livemode).toBe(true);
    expect(apiKey.prefix).toBe(secret.slice(0, 20));
  });

  it("when the merchant does not exist, then the key is NOT_FOUND", async () => {
    await expectGatewayError(createApiKey(deps, { merchantId: "mer_missing", livemode: false }), "NOT_FOUND");
  });

  it("when the expiry is not in the future, then expires_at is invalid", async () => {
    const err = await expectGatewayError(
      createApiKey(deps, { merchantId: merchant.id, livemode: false, expiresAt: clock.now() }),
      "VALIDATION_ERROR",
    );
    expect(err.violations).toEqual([expect.objectContaining({ field: "expires_at", code: "invalid" })]);
  });

  it("when a key is created with an expiry, then the expiry is stored", async () => {
    const expiresAt = new Date(Date.UTC(2026, 5, 1));
    const { apiKey } = await createApiKey(deps, { merchantId: merchant.id, livemode: false, expiresAt });
    expect((await deps.repos.apiKeys.findById(apiKey.id))?.expiresAt).toEqual(expiresAt);
  });

  it("when a key is revoked twice, then the first revocation time stays", async () => {
    const { apiKey } = await createApiKey(deps, { merchantId: merchant.id, livemode: false });
    const first = await revokeApiKey(deps, apiKey.id);
    expect(first.revokedAt).toEqual(clock.now());
    clock.advance(60_000);
    expect((await revokeApiKey(deps, apiKey.id)).revokedAt).toEqual(first.revokedAt);
  });

  it("when an unknown key is revoked, then it is NOT_FOUND", async () => {
    await expectGatewayError(revokeApiKey(deps, "key_missing"), "NOT_FOUND");
  });
});
