import { newId } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import type { ExchangeRateRepository } from "../../src/app/ports.js";
import type { ExchangeRate } from "../../src/domain/exchange-rate.js";

function aRate(overrides: Partial<ExchangeRate> = {}): ExchangeRate {
  return {
    merchantId: newId("mer"),
    currency: "EUR",
    rate: "3.400000",
    updatedAt: new Date("2026-01-01T00:00:00.000Z"),
    ...overrides,
  };
}

export function describeExchangeRateRepositoryContract(
  name: string,
  factory: () => Promise<ExchangeRateRepository>,
): void {
  describe(`ExchangeRateRepository contract: ${name}`, () => {
    let rates: ExchangeRateRepository;
    beforeEach(async () => {
      rates = await factory();
    });

    it("when no rate was set, then nothing is found", async () => {
      expect(await rates.find(newId("mer"), "EUR")).toBeUndefined();
    });

    it("when a rate is set, then it is found with every field intact", async () => {
      const rate = aRate();
      await rates.upsert(rate);
      expect(await rates.find(rate.merchantId, "EUR")).toEqual(rate);
    });

    it("when a rate is set again, then the new rate and time replace the old ones", async () => {
      const first = aRate();
      await rates.upsert(first);
      const second = { ...first, rate: "3.512345", updatedAt: new Date("2026-01-05T08:00:00.000Z") };
      await rates.upsert(second);
      expect(await rates.find(first.merchantId, "EUR")).toEqual(second);
    });

    it("when rates differ by merchant or currency, then each is kept apart", async () => {
      const merchantId = newId("mer");
      const eur = aRate({ merchantId, currency: "EUR", rate: "3.400000" });
      const usd = aRate({ merchantId, currency: "USD", rate: "3.100000" });
      const otherMerchant = aRate({ currency: "EUR", rate: "9.000000" });
      for (const rate of [eur, usd, otherMerchant]) await rates.upsert(rate);
      expect(await rates.find(merchantId, "EUR")).toEqual(eur);
      expect(await rates.find(merchantId, "USD")).toEqual(usd);
      expect(await rates.find(otherMerchant.merchantId, "EUR")).toEqual(otherMerchant);
      expect(await rates.find(merchantId, "GBP")).toBeUndefined();
    });

    it("when the first rate of a pair is set concurrently, then every write succeeds and one rate remains", async () => {
      const merchantId = newId("mer");
      const writes = ["1.000000", "2.000000", "3.000000", "4.000000", "5.000000"].map((rate) =>
        aRate({ merchantId, rate }),
      );
      await Promise.all(writes.map((rate) => rates.upsert(rate)));
      const found = await rates.find(merchantId, "EUR");
      expect(writes.map((w) => w.rate)).toContain(found?.rate);
    });
  });
}
