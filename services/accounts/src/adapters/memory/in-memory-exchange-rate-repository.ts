import type { ExchangeRateRepository } from "../../app/ports.js";
import type { ExchangeRate } from "../../domain/exchange-rate.js";

/** Exchange rates keyed by (merchantId, currency), like the Mongo unique index. */
export class InMemoryExchangeRateRepository implements ExchangeRateRepository {
  private readonly rates = new Map<string, ExchangeRate>();

  async upsert(rate: ExchangeRate): Promise<void> {
    this.rates.set(keyOf(rate.merchantId, rate.currency), structuredClone(rate));
  }

  async find(merchantId: string, currency: string): Promise<ExchangeRate | undefined> {
    const rate = this.rates.get(keyOf(merchantId, currency));
    return rate && structuredClone(rate);
  }
}

// JSON of the pair: no separator character can make two different pairs collide.
function keyOf(merchantId: string, currency: string): string {
  return JSON.stringify([merchantId, currency]);
}
