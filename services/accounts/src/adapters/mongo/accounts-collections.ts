import type { Collection, Db } from "mongodb";

/**
 * Stored shapes. Merchants and API keys use our public id as `_id` (one unique key, no second
 * id to keep in sync); exchange rates are identified by (merchantId, currency) and keep the
 * driver's ObjectId as a meaningless `_id`. Timestamps are BSON dates.
 */
export interface MerchantDocument {
  _id: string;
  name: string;
  verified: boolean;
  createdAt: Date;
}

export interface ApiKeyDocument {
  _id: string;
  merchantId: string;
  livemode: boolean;
  lookupId: string;
  prefix: string;
  hash: string;
  createdAt: Date;
  expiresAt?: Date;
  revokedAt?: Date;
}

export interface ExchangeRateDocument {
  merchantId: string;
  currency: string;
  rate: string;
  updatedAt: Date;
}

export const MERCHANTS_COLLECTION = "merchants";
export const API_KEYS_COLLECTION = "api_keys";
export const EXCHANGE_RATES_COLLECTION = "exchange_rates";

export function merchantsCollection(db: Db): Collection<MerchantDocument> {
  return db.collection<MerchantDocument>(MERCHANTS_COLLECTION);
}

export function apiKeysCollection(db: Db): Collection<ApiKeyDocument> {
  return db.collection<ApiKeyDocument>(API_KEYS_COLLECTION);
}

export function exchangeRatesCollection(db: Db): Collection<ExchangeRateDocument> {
  return db.collection<ExchangeRateDocument>(EXCHANGE_RATES_COLLECTION);
}
