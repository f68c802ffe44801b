import { createSecretBox, generateSecretsKey, type SecretBox } from "@gateway/platform";
import type { AccountsRepositories } from "../../app/ports.js";
import { InMemoryApiKeyRepository } from "./in-memory-api-key-repository.js";
import { InMemoryAuditLogRepository } from "./in-memory-audit-log-repository.js";
import { InMemoryBusinessVerificationRepository } from "./in-memory-business-verification-repository.js";
import { createInMemoryDashboardStores } from "./in-memory-dashboard-stores.js";
import { InMemoryExchangeRateRepository } from "./in-memory-exchange-rate-repository.js";
import { InMemoryFeePlanRepository } from "./in-memory-fee-plan-repository.js";
import { InMemoryMerchantRepository } from "./in-memory-merchant-repository.js";
import { InMemoryTerminalRepository } from "./in-memory-terminal-repository.js";

/**
 * In-memory stores for embedded mode and unit tests; state lives as long as the process.
 * Terminal passwords and kept test keys are sealed with `secretBox`, by default one with a random key made here:
 * it lives exactly as long as the stores it protects, so nothing is lost by not configuring one.
 */
export function createMemoryAccountsRepositories(
  options: { secretBox?: SecretBox } = {},
): AccountsRepositories {
  const secretBox = options.secretBox ?? createSecretBox(generateSecretsKey());
  return {
    merchants: new InMemoryMerchantRepository(),
    apiKeys: new InMemoryApiKeyRepository(secretBox),
    exchangeRates: new InMemoryExchangeRateRepository(),
    terminals: new InMemoryTerminalRepository(secretBox),
    feePlans: new InMemoryFeePlanRepository(),
    dashboard: createInMemoryDashboardStores(),
    businessVerifications: new InMemoryBusinessVerificationRepository(),
    auditLog: new InMemoryAuditLogRepository(),
  };
}
