import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { ExchangeRateRepository } from "../../app/ports.js";
import type { ExchangeRate } from "../../domain/exchange-rate.js";
import {
  type ExchangeRateDocument,
  type ExchangeRateHistoryDocument,
  exchangeRateHistoryCollection,
  exchangeRatesCollection,
} from "./accounts-collections.js";
import { runMongo } from "./mongo-errors.js";

/** The largest page the current-rates list reads: far more than there are ISO 4217 currencies. */
const MAX_CURRENT_RATES = 500;

export class MongoExchangeRateRepository implements ExchangeRateRepository {
  private readonly rates: Collection<ExchangeRateDocument>;
  private readonly history: Collection<ExchangeRateHistoryDocument>;

  constructor(db: Db) {
    this.rates = exchangeRatesCollection(db);
    this.history = exchangeRateHistoryCollection(db);
  }

  upsert(rate: ExchangeRate): Promise<void> {
    return runMongo(async () => {
      // `setBy` is unset, not left over, when the operator replaces a merchant user's rate.
      const update = rate.setBy
        ? { $set: { rate: rate.rate, updatedAt: rate.updatedAt, setBy: rate.setBy } }
        : { $set: { rate: rate.rate, updatedAt: rate.updatedAt }, $unset: { setBy: "" as const } };
      const write = () =>
        this.rates.updateOne({ merchantId: rate.merchantId, currency: rate.currency }, update, {
          upsert: true,
        });
      try {
        await write();
      } catch (err) {
        // Two first-time upserts raced and the other inserted: the document exists now, so
        // the retry is a plain update.
        if (!isDuplicateKeyError(err)) throw err;
        await write();
      }
      // After the current rate: a history entry is only ever written for a rate that took effect.
      await this.history.insertOne(rateFields(rate));
    });
  }

  find(merchantId: string, currency: string): Promise<ExchangeRate | undefined> {
    return runMongo(async () => {
      const doc = await this.rates.findOne({ merchantId, currency });
      return doc ? rateFields(doc) : undefined;
    });
  }

  listByMerchant(merchantId: string): Promise<ExchangeRate[]> {
    return runMongo(async () => {
      const docs = await this.rates
        .find({ merchantId })
        .sort({ merchantId: 1, currency: 1 })
        .limit(MAX_CURRENT_RATES)
        .toArray();
      return docs.map(rateFields);
    });
  }

  listHistory(merchantId: string, options: { currency?: string; limit: number }): Promise<ExchangeRate[]> {
    return runMongo(async () => {
      const filter = options.currency ? { merchantId, currency: options.currency } : { merchantId };
      const docs = await this.history
        .find(filter)
        .sort({ updatedAt: -1, _id: -1 })
        .limit(options.limit)
        .toArray();
      return docs.map(rateFields);
    });
  }
}

/**
 * The rate's own fields, without the driver's `_id` or an absent author: stored and read-back
 * shapes are the same, so one copy serves both directions.
 */
function rateFields(rate: ExchangeRate | ExchangeRateDocument): ExchangeRate {
  const { merchantId, currency, rate: value, updatedAt, setBy } = rate;
  return { merchantId, currency, rate: value, updatedAt, ...(setBy ? { setBy } : {}) };
}
