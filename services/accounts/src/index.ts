// Public surface of the accounts service, used by the launcher (embedded and distributed) and tests.
export { createAccountsRoutes, createAccountsInterceptors, ACCOUNTS_ERROR_DOMAIN, type AccountsRoutesDeps } from "./accounts-module.js";
export { createMemoryAccountsRepositories } from "./adapters/memory/create-memory-accounts-repositories.js";
export { createMongoAccountsRepositories } from "./adapters/mongo/create-mongo-accounts-repositories.js";
export { ensureAccountsIndexes } from "./adapters/mongo/ensure-accounts-indexes.js";
export {
  seedDemoMerchant,
  DEMO_MERCHANT_ID,
  DEMO_MERCHANT_NAME,
  type SeededDemoMerchant,
} from "./app/seed-demo-merchant.js";
export type {
  AccountsRepositories,
  ApiKeyRepository,
  ExchangeRateRepository,
  InsertOutcome,
  MerchantRepository,
} from "./app/ports.js";
export type { AccountScope } from "./domain/account-scope.js";
export type { ApiKey } from "./domain/api-key.js";
export type { Merchant } from "./domain/merchant.js";
export type { ExchangeRate } from "./domain/exchange-rate.js";
export { accountsConfigSpec, type AccountsConfig } from "./config.js";
