import { ManualClock } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { getExchangeRate, setExchangeRate } from "../src/app/exchange-rates.js";
import { createMerchant } from "../src/app/merchants.js";
import type { Merchant } from "../src/domain/merchant.js";
import { expectGatewayError } from "./support/expect-gateway-error.js";

describe("exchange rates", () => {
  let clock: ManualClock;
  let deps: AccountsDeps;
  let merchant: Merchant;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 10));
    deps = { repos: createMemoryAccountsRepositories(), clock };
    merchant = await createMerchant(deps, { name: "Shop" });
  });

  it("when a rate is set, then it is normalised to six decimals and read back", async () => {
    expect(await setExchangeRate(deps, { merchantId: merchant.id, currency: "EUR", rate: "3.4" })).toEqual({
      merchantId: merchant.id,
      currency: "EUR",
      rate: "3.400000",
      updatedAt: clock.now(),
    });
    expect((await getExchangeRate(deps, { merchantId: merchant.id, currency: "EUR" })).rate).toBe("3.400000");
  });

  it("when a rate is set again, then the new rate replaces the old one", async () => {
    await setExchangeRate(deps, { merchantId: merchant.id, currency: "USD", rate: "3.1" });
    clock.advance(1000);
    await setExchangeRate(deps, { merchantId: merchant.id, currency: "USD", rate: "3.123456" });
    expect(await getExchangeRate(deps, { merchantId: merchant.id, currency: "USD" })).toMatchObject({
      rate: "3.123456",
      updatedAt: clock.now(),
    });
  });

  it("when the currency is given in lower case, then it is stored and found upper case", async () => {
    expect(
      (await setExchangeRate(deps, { merchantId: merchant.id, currency: "eur", rate: "3.4" })).currency,
    ).toBe("EUR");
    expect((await getExchangeRate(deps, { merchantId: merchant.id, currency: "Eur" })).currency).toBe("EUR");
  });

  it.each(["TND", "XYZ", "EURO", ""])(
    "when the currency is %j, then currency is invalid",
    async (currency) => {
      const err = await expectGatewayError(
        setExchangeRate(deps, { merchantId: merchant.id, currency, rate: "3.4" }),
        "VALIDATION_ERROR",
      );
      expect(err.violations).toEqual([expect.objectContaining({ field: "currency", code: "invalid" })]);
    },
  );

  it.each(["0", "-1", "abc", "1.1234567", "1,5", "", "1e3"])(
    "when the rate is %j, then rate is invalid",
    async (rate) => {
      const err = await expectGatewayError(
        setExchangeRate(deps, { merchantId: merchant.id, currency: "EUR", rate }),
        "VALIDATION_ERROR",
      );
      expect(err.violations).toEqual([expect.objectContaining({ field: "rate", code: "invalid" })]);
    },
  );

  it("when both fields are wrong, then both violations are reported at once", async () => {
    const err = await expectGatewayError(
      setExchangeRate(deps, { merchantId: merchant.id, currency: "TND", rate: "zero" }),
      "VALIDATION_ERROR",
    );
    expect(err.violations.map((v) => v.field)).toEqual(["currency", "rate"]);
  });

  it("when the merchant does not exist, then setting a rate is NOT_FOUND", async () => {
    await expectGatewayError(
      setExchangeRate(deps, { merchantId: "mer_missing", currency: "EUR", rate: "3.4" }),
      "NOT_FOUND",
    );
  });

  it("when no rate is configured, then reading it is NOT_FOUND with the currency in the metadata", async () => {
    await setExchangeRate(deps, { merchantId: merchant.id, currency: "EUR", rate: "3.4" });
    const err = await expectGatewayError(
      getExchangeRate(deps, { merchantId: merchant.id, currency: "USD" }),
      "NOT_FOUND",
    );
    expect(err.metadata).toEqual({ currency: "USD" });
  });

  it("when another merchant set a rate, then it is not visible to this one", async () => {
    const other = await createMerchant(deps, { name: "Other" });
    await setExchangeRate(deps, { merchantId: other.id, currency: "EUR", rate: "3.4" });
    await expectGatewayError(
      getExchangeRate(deps, { merchantId: merchant.id, currency: "EUR" }),
      "NOT_FOUND",
    );
  });
});
