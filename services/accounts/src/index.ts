// Public surface of the accounts service, used by the launcher (embedded and distributed) and tests.

export {
  createSecretBox,
  generateSecretsKey,
  parseSecretsKey,
  type SealedSecret,
  type SecretBox,
  SecretUnreadableError,
  secretsKeyId,
} from "@gateway/platform";
export {
  ACCOUNTS_ERROR_DOMAIN,
  type AccountsRoutesDeps,
  createAccountsInterceptors,
  createAccountsRoutes,
} from "./accounts-module.js";
export { createMemoryAccountsRepositories } from "./adapters/memory/create-memory-accounts-repositories.js";
export { createMongoAccountsRepositories } from "./adapters/mongo/create-mongo-accounts-repositories.js";
export { ensureAccountsIndexes } from "./adapters/mongo/ensure-accounts-indexes.js";
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
export {
  DEMO_MERCHANT_ID,
  DEMO_MERCHANT_NAME,
  type SeedDemoMerchantOptions,
  type SeededDemoMerchant,
  seedDemoMerchant,
} from "./app/seed-demo-merchant.js";
export { type AccountsConfig, accountsConfigSpec, demoTerminalFromConfig } from "./config.js";
export type { AccountScope } from "./domain/account-scope.js";
export type { ApiKey } from "./domain/api-key.js";
export type { ExchangeRate } from "./domain/exchange-rate.js";
export type { FeePlan } from "./domain/fee-plan.js";
export type { Merchant } from "./domain/merchant.js";
export type { Terminal, TerminalCredentials } from "./domain/terminal.js";
export { type SecretsKeyConfig, secretBoxFromConfig } from "./secret-box-from-config.js";
