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
    it("when a merchant user sets a rate, then who set it is kept; an operator's later rate clears it", async () => {
      const byUser = aRate({ setBy: "usr_owner" });
      await rates.upsert(byUser);
      expect(await rates.find(byUser.merchantId, "EUR")).toEqual(byUser);
      const byOperator = aRate({ merchantId: byUser.merchantId, rate: "3.600000" });
      await rates.upsert(byOperator);
      const found = await rates.find(byUser.merchantId, "EUR");
      expect(found).toEqual(byOperator);
      expect(found).not.toHaveProperty("setBy");
    });

    it("when rates are listed, then each currency's current rate comes once, in currency order, for that merchant only", async () => {
      const merchantId = newId("mer");
      await rates.upsert(aRate({ merchantId, currency: "USD", rate: "3.100000" }));
      await rates.upsert(aRate({ merchantId, currency: "EUR", rate: "3.400000" }));
      const latestEur = aRate({
        merchantId,
        currency: "EUR",
        rate: "3.450000",
        setBy: "usr_owner",
        updatedAt: new Date("2026-01-02T00:00:00.000Z"),
      });
      await rates.upsert(latestEur);
      await rates.upsert(aRate({ currency: "GBP" }));
      const listed = await rates.listByMerchant(merchantId);
      expect(listed.map((r) => [r.currency, r.rate])).toEqual([
        ["EUR", "3.450000"],
        ["USD", "3.100000"],
      ]);
      expect(listed[0]).toEqual(latestEur);
      expect(await rates.listByMerchant(newId("mer"))).toEqual([]);
    });

    it("when rates are set over time, then the history keeps every one newest first, per merchant and currency", async () => {
      const merchantId = newId("mer");
      const at = (day: number) => new Date(`2026-01-0${day}T00:00:00.000Z`);
      const set = [
        aRate({ merchantId, currency: "EUR", rate: "3.100000", updatedAt: at(1) }),
        aRate({ merchantId, currency: "USD", rate: "2.900000", updatedAt: at(2), setBy: "usr_a" }),
        aRate({ merchantId, currency: "EUR", rate: "3.200000", updatedAt: at(3), setBy: "usr_b" }),
        aRate({ merchantId, currency: "EUR", rate: "3.300000", updatedAt: at(4) }),
      ];
      for (const rate of set) await rates.upsert(rate);
      await rates.upsert(aRate({ currency: "EUR", updatedAt: at(5) }));

      expect(await rates.listHistory(merchantId, { limit: 10 })).toEqual([set[3], set[2], set[1], set[0]]);
      expect(await rates.listHistory(merchantId, { currency: "EUR", limit: 10 })).toEqual([
        set[3],
        set[2],
        set[0],
      ]);
      expect(await rates.listHistory(merchantId, { currency: "EUR", limit: 2 })).toEqual([set[3], set[2]]);
      expect(await rates.listHistory(merchantId, { currency: "GBP", limit: 10 })).toEqual([]);
    });

    it("when the same rate is set twice at the same instant, then both entries stay, the later one first", async () => {
      const merchantId = newId("mer");
      const first = aRate({ merchantId, rate: "3.100000", setBy: "usr_a" });
      const second = aRate({ merchantId, rate: "3.200000", setBy: "usr_b" });
      await rates.upsert(first);
      await rates.upsert(second);
      expect(await rates.listHistory(merchantId, { limit: 10 })).toEqual([second, first]);
    });
  });
}
