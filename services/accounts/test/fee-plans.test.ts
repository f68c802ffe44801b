import { ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { getFeePlan, setFeePlan } from "../src/app/fee-plans.js";
import { createMerchant } from "../src/app/merchants.js";
import type { Merchant } from "../src/domain/merchant.js";
import { expectGatewayError } from "./support/expect-gateway-error.js";

describe("fee plans", () => {
  let clock: ManualClock;
  let deps: AccountsDeps;
  let merchant: Merchant;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 10));
    deps = { repos: createMemoryAccountsRepositories(), clock };
    merchant = await createMerchant(deps, { name: "Shop" });
  });

  it("when a merchant never had a plan, then its plan is 0% + 0.000 TND with no update time", async () => {
    expect(await getFeePlan(deps, merchant.id)).toEqual({
      merchantId: merchant.id,
      percent: "0",
      fixedMinor: 0n,
    });
  });

  it("when a plan is set, then it is normalised, stored with its time, and read back", async () => {
    const plan = await setFeePlan(deps, { merchantId: merchant.id, percent: "2.50", fixed: "0.300" });
    expect(plan).toEqual({
      merchantId: merchant.id,
      percent: "2.5",
      fixedMinor: 300n,
      updatedAt: clock.now(),
    });
    expect(await getFeePlan(deps, merchant.id)).toEqual(plan);
  });

  it("when a plan is set again, then the new one replaces it", async () => {
    await setFeePlan(deps, { merchantId: merchant.id, percent: "2.5", fixed: "0.300" });
    clock.advance(1000);
    await setFeePlan(deps, { merchantId: merchant.id, percent: "1.75", fixed: "0.000" });
    expect(await getFeePlan(deps, merchant.id)).toEqual({
      merchantId: merchant.id,
      percent: "1.75",
      fixedMinor: 0n,
      updatedAt: clock.now(),
    });
  });

  it("when the values are invalid, then both fields are reported and nothing is stored", async () => {
    const err = await expectGatewayError(
      setFeePlan(deps, { merchantId: merchant.id, percent: "100", fixed: "-1.000" }),
      "VALIDATION_ERROR",
    );
    expect(err.violations.map((v) => v.field)).toEqual(["percent", "fixed"]);
    expect(await deps.repos.feePlans.find(merchant.id)).toBeUndefined();
  });

  it("when the merchant does not exist, then setting or reading a plan is NOT_FOUND", async () => {
    await expectGatewayError(
      setFeePlan(deps, { merchantId: "mer_missing", percent: "1", fixed: "0.000" }),
      "NOT_FOUND",
    );
    await expectGatewayError(getFeePlan(deps, "mer_missing"), "NOT_FOUND");
  });

  it("when the merchant id is empty, then merchant_id is required", async () => {
    const err = await expectGatewayError(getFeePlan(deps, ""), "VALIDATION_ERROR");
    expect(err.violations).toEqual([expect.objectContaining({ field: "merchant_id", code: "required" })]);
  });
});
