import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { ExchangeRateRepository } from "../../app/ports.js";
import type { ExchangeRate } from "../../domain/exchange-rate.js";
import { type ExchangeRateDocument, exchangeRatesCollection } from "./accounts-collections.js";
import { runMongo } from "./mongo-errors.js";

export class MongoExchangeRateRepository implements ExchangeRateRepository {
  private readonly rates: Collection<ExchangeRateDocument>;

  constructor(db: Db) {
    this.rates = exchangeRatesCollection(db);
  }

  upsert(rate: ExchangeRate): Promise<void> {
    return runMongo(async () => {
      const write = () =>
        this.rates.updateOne(
          { merchantId: rate.merchantId, currency: rate.currency },
          { $set: { rate: rate.rate, updatedAt: rate.updatedAt } },
          { upsert: true },
        );
      try {
        await write();
      } catch (err) {
        // Two first-time upserts raced and the other inserted: the document exists now, so
        // the retry is a plain update.
        if (!isDuplicateKeyError(err)) throw err;
        await write();
      }
    });
  }

  find(merchantId: string, currency: string): Promise<ExchangeRate | undefined> {
    return runMongo(async () => {
      const doc = await this.rates.findOne({ merchantId, currency });
      return doc
        ? { merchantId: doc.merchantId, currency: doc.currency, rate: doc.rate, updatedAt: doc.updatedAt }
        : undefined;
    });
  }
}
