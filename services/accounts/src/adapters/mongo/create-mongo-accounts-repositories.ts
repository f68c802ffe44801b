import type { Db } from "mongodb";
import type { AccountsRepositories } from "../../app/ports.js";
import { ensureAccountsIndexes } from "./ensure-accounts-indexes.js";
import { MongoApiKeyRepository } from "./mongo-api-key-repository.js";
import { MongoExchangeRateRepository } from "./mongo-exchange-rate-repository.js";
import { MongoMerchantRepository } from "./mongo-merchant-repository.js";

/** Mongo stores over the service's database; creates the indexes first (idempotent). */
export async function createMongoAccountsRepositories(db: Db): Promise<AccountsRepositories> {
  await ensureAccountsIndexes(db);
  return {
    merchants: new MongoMerchantRepository(db),
    apiKeys: new MongoApiKeyRepository(db),
    exchangeRates: new MongoExchangeRateRepository(db),
  };
}
