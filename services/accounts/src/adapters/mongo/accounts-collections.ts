import type { SealedSecret } from "@gateway/platform";
import type { Collection, Db } from "mongodb";

/**
 * Stored shapes. Merchants and API keys use our public id as `_id` (one unique key, no second
 * id to keep in sync); exchange rates are identified by (merchantId, currency) and keep the
 * driver's ObjectId as a meaningless `_id`, as do terminals (merchantId, livemode); fee plans
 * use the merchant id as `_id` (one plan per merchant). Timestamps are BSON dates.
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
  /** The test key itself, sealed (AES-256-GCM, context `api-key:<id>`); never set for live keys. */
  sealedSecret?: SealedSecret;
  lastUsedAt?: Date;
}

export interface ExchangeRateDocument {
  merchantId: string;
  currency: string;
  rate: string;
  updatedAt: Date;
  setBy?: string;
}

/** One rate as it was set; append-only, the driver's ObjectId `_id` orders equal times. */
export type ExchangeRateHistoryDocument = ExchangeRateDocument;

/** Never the password itself: only its AES-256-GCM sealed form (base64 fields and key id). */
export interface TerminalDocument {
  merchantId: string;
  livemode: boolean;
  baseUrl: string;
  username: string;
  sealedPassword: SealedSecret;
  active: boolean;
  updatedAt: Date;
}

/** `fixedMinor` is a BSON Int64 count of millimes, read back as a bigint. */
export interface FeePlanDocument {
  _id: string;
  percent: string;
  fixedMinor: bigint;
  updatedAt: Date;
}

export const MERCHANTS_COLLECTION = "merchants";
export const API_KEYS_COLLECTION = "api_keys";
export const EXCHANGE_RATES_COLLECTION = "exchange_rates";
export const EXCHANGE_RATE_HISTORY_COLLECTION = "exchange_rate_history";
export const TERMINALS_COLLECTION = "terminals";
export const FEE_PLANS_COLLECTION = "fee_plans";

export function merchantsCollection(db: Db): Collection<MerchantDocument> {
  return db.collection<MerchantDocument>(MERCHANTS_COLLECTION);
}

export function apiKeysCollection(db: Db): Collection<ApiKeyDocument> {
  return db.collection<ApiKeyDocument>(API_KEYS_COLLECTION);
}

export function exchangeRatesCollection(db: Db): Collection<ExchangeRateDocument> {
  return db.collection<ExchangeRateDocument>(EXCHANGE_RATES_COLLECTION);
}

export function exchangeRateHistoryCollection(db: Db): Collection<ExchangeRateHistoryDocument> {
  return db.collection<ExchangeRateHistoryDocument>(EXCHANGE_RATE_HISTORY_COLLECTION);
}

export function terminalsCollection(db: Db): Collection<TerminalDocument> {
  return db.collection<TerminalDocument>(TERMINALS_COLLECTION);
}

export function feePlansCollection(db: Db): Collection<FeePlanDocument> {
  // useBigInt64: the Int64 fixed fee comes back as an exact bigint, never a JS number.
  return db.collection<FeePlanDocument>(FEE_PLANS_COLLECTION, { useBigInt64: true });
}
