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
  type SeedDemoMerchantOptions,
} from "./app/seed-demo-merchant.js";
export type {
  AccountsRepositories,
  ApiKeyRepository,
  ExchangeRateRepository,
  FeePlanRepository,
  InsertOutcome,
  MerchantRepository,
  StoredTerminal,
  TerminalRepository,
} from "./app/ports.js";
export type { AccountScope } from "./domain/account-scope.js";
export type { ApiKey } from "./domain/api-key.js";
export type { Merchant } from "./domain/merchant.js";
export type { ExchangeRate } from "./domain/exchange-rate.js";
export type { FeePlan } from "./domain/fee-plan.js";
export type { Terminal, TerminalCredentials } from "./domain/terminal.js";
export {
  createSecretBox,
  generateSecretsKey,
  parseSecretsKey,
  secretsKeyId,
  SecretUnreadableError,
  type SealedSecret,
  type SecretBox,
} from "./domain/secret-box.js";
export { secretBoxFromConfig, type SecretsKeyConfig } from "./secret-box-from-config.js";
export { accountsConfigSpec, demoTerminalFromConfig, type AccountsConfig } from "./config.js";
