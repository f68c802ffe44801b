import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import { describeApiKeyRepositoryContract } from "./contracts/api-key-repository.contract.js";
import { describeExchangeRateRepositoryContract } from "./contracts/exchange-rate-repository.contract.js";
import { describeMerchantRepositoryContract } from "./contracts/merchant-repository.contract.js";

describeMerchantRepositoryContract("in memory", async () => createMemoryAccountsRepositories().merchants);
describeApiKeyRepositoryContract("in memory", async () => createMemoryAccountsRepositories().apiKeys);
describeExchangeRateRepositoryContract("in memory", async () => createMemoryAccountsRepositories().exchangeRates);
