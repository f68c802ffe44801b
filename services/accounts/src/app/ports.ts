import type { ApiKey } from "../domain/api-key.js";
import type { ExchangeRate } from "../domain/exchange-rate.js";
import type { Merchant } from "../domain/merchant.js";

/** Result of an insert that must not overwrite: adapters turn duplicate-key errors into this. */
export type InsertOutcome = "inserted" | "already_exists";

export interface MerchantRepository {
  /** Stores a new merchant; "already_exists" when its id is taken (nothing is changed then). */
  insert(merchant: Merchant): Promise<InsertOutcome>;
  findById(id: string): Promise<Merchant | undefined>;
  /** Sets verified; returns the merchant as stored afterwards, undefined when it does not exist. */
  markVerified(id: string): Promise<Merchant | undefined>;
}

export interface ApiKeyRepository {
  /** Stores a new key; "already_exists" when its id or lookup id is taken (nothing is changed then). */
  insert(key: ApiKey): Promise<InsertOutcome>;
  findById(id: string): Promise<ApiKey | undefined>;
  findByLookupId(lookupId: string): Promise<ApiKey | undefined>;
  /** The merchant's keys, newest first (ties broken by id). */
  listByMerchant(merchantId: string): Promise<ApiKey[]>;
  /**
   * Revokes the key at `at` unless it is already revoked (then the first revocation time stays).
   * Returns the key as stored afterwards, undefined when it does not exist.
   */
  markRevoked(id: string, at: Date): Promise<ApiKey | undefined>;
}

export interface ExchangeRateRepository {
  /** Creates or replaces the rate of (merchantId, currency). */
  upsert(rate: ExchangeRate): Promise<void>;
  find(merchantId: string, currency: string): Promise<ExchangeRate | undefined>;
}

export interface AccountsRepositories {
  merchants: MerchantRepository;
  apiKeys: ApiKeyRepository;
  exchangeRates: ExchangeRateRepository;
}
