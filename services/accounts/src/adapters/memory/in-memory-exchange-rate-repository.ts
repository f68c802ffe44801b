import { copyRecord } from "@gateway/platform";
import type { ExchangeRateRepository } from "../../app/ports.js";
import type { ExchangeRate } from "../../domain/exchange-rate.js";

/** Exchange rates keyed by (merchantId, currency), like the Mongo unique index, plus their history. */
export class InMemoryExchangeRateRepository implements ExchangeRateRepository {
  private readonly rates = new Map<string, ExchangeRate>();
  /** Every rate set, oldest first (insertion order breaks ties between equal times). */
  private readonly history: ExchangeRate[] = [];

  async upsert(rate: ExchangeRate): Promise<void> {
    this.rates.set(keyOf(rate.merchantId, rate.currency), copyRecord(rate));
    this.history.push(copyRecord(rate));
  }

  async find(merchantId: string, currency: string): Promise<ExchangeRate | undefined> {
    const rate = this.rates.get(keyOf(merchantId, currency));
    return rate && copyRecord(rate);
  }

  async listByMerchant(merchantId: string): Promise<ExchangeRate[]> {
    return [...this.rates.values()]
      .filter((rate) => rate.merchantId === merchantId)
      .sort((a, b) => a.currency.localeCompare(b.currency))
      .map((rate) => copyRecord(rate));
  }

  async listHistory(
    merchantId: string,
    options: { currency?: string; limit: number },
  ): Promise<ExchangeRate[]> {
    return this.history
      .map((rate, order) => ({ rate, order }))
      .filter(
        ({ rate }) =>
          rate.merchantId === merchantId && (!options.currency || rate.currency === options.currency),
      )
      .sort((a, b) => b.rate.updatedAt.getTime() - a.rate.updatedAt.getTime() || b.order - a.order)
      .slice(0, options.limit)
      .map(({ rate }) => copyRecord(rate));
  }
}

// JSON of the pair: no separator character can make two different pairs collide.
function keyOf(merchantId: string, currency: string): string {
  return JSON.stringify([merchantId, currency]);
}
