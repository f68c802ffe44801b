import type { AccountsRepositories } from "../../app/ports.js";
import { InMemoryApiKeyRepository } from "./in-memory-api-key-repository.js";
import { InMemoryExchangeRateRepository } from "./in-memory-exchange-rate-repository.js";
import { InMemoryMerchantRepository } from "./in-memory-merchant-repository.js";

/** In-memory stores for embedded mode and unit tests; state lives as long as the process. */
export function createMemoryAccountsRepositories(): AccountsRepositories {
  return {
    merchants: new InMemoryMerchantRepository(),
    apiKeys: new InMemoryApiKeyRepository(),
    exchangeRates: new InMemoryExchangeRateRepository(),
  };
}
