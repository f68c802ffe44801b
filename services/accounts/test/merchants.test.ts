import { ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { createMerchant, getMerchant, verifyMerchant } from "../src/app/merchants.js";
import { expectGatewayError } from "./support/expect-gateway-error.js";

describe("merchants", () => {
  let deps: AccountsDeps;
  beforeEach(() => {
    deps = { repos: createMemoryAccountsRepositories(), clock: new ManualClock(Date.UTC(2026, 2, 1)) };
  });

  it("when a merchant is created, then it has a mer_ id, the trimmed name, is unverified and dated now", async () => {
    const merchant = await createMerchant(deps, { name: "  Café Tunis  " });
    expect(merchant).toEqual({
      id: expect.stringMatching(/^mer_[0-9A-Za-z]{24}$/),
      name: "Café Tunis",
      verified: false,
      createdAt: new Date(Date.UTC(2026, 2, 1)),
    });
    expect(await getMerchant(deps, merchant.id)).toEqual(merchant);
  });

  it.each(["", "   ", "\t\n"])("when the name is blank (%j), then name is required", async (name) => {
    const err = await expectGatewayError(createMerchant(deps, { name }), "VALIDATION_ERROR");
    expect(err.violations).toEqual([{ field: "name", code: "required", message: "name is required." }]);
  });

  it("when the name has 200 characters, then it is accepted; at 201 it is invalid", async () => {
    expect((await createMerchant(deps, { name: "é".repeat(200) })).name).toHaveLength(200);
    const err = await expectGatewayError(createMerchant(deps, { name: "x".repeat(201) }), "VALIDATION_ERROR");
    expect(err.violations).toEqual([expect.objectContaining({ field: "name", code: "invalid" })]);
  });

  it("when the name is 200 emoji, then each counts as one character", async () => {
    expect((await createMerchant(deps, { name: "🛒".repeat(200) })).name).toBe("🛒".repeat(200));
  });

  it("when a merchant is verified, then it stays verified on every later read", async () => {
    const merchant = await createMerchant(deps, { name: "Shop" });
    expect((await verifyMerchant(deps, merchant.id)).verified).toBe(true);
    expect((await verifyMerchant(deps, merchant.id)).verified).toBe(true);
    expect((await getMerchant(deps, merchant.id)).verified).toBe(true);
  });

  it("when the merchant does not exist, then get and verify are NOT_FOUND naming the id", async () => {
    expect((await expectGatewayError(getMerchant(deps, "mer_missing"), "NOT_FOUND")).metadata).toEqual({
      id: "mer_missing",
    });
    await expectGatewayError(verifyMerchant(deps, "mer_missing"), "NOT_FOUND");
  });

  it("when the merchant id is empty, then merchant_id is required", async () => {
    const err = await expectGatewayError(getMerchant(deps, ""), "VALIDATION_ERROR");
    expect(err.violations).toEqual([expect.objectContaining({ field: "merchant_id", code: "required" })]);
  });
});
