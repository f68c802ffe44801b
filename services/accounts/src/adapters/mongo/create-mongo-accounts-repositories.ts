import type { SecretBox } from "@gateway/platform";
import type { Db } from "mongodb";
import type { AccountsRepositories } from "../../app/ports.js";
import { ensureAccountsIndexes } from "./ensure-accounts-indexes.js";
import { MongoApiKeyRepository } from "./mongo-api-key-repository.js";
import { MongoAuditLogRepository } from "./mongo-audit-log-repository.js";
import { MongoBusinessVerificationRepository } from "./mongo-business-verification-repository.js";
import { createMongoDashboardStores } from "./mongo-dashboard-stores.js";
import { MongoExchangeRateRepository } from "./mongo-exchange-rate-repository.js";
import { MongoFeePlanRepository } from "./mongo-fee-plan-repository.js";
import { MongoMerchantRepository } from "./mongo-merchant-repository.js";
import { MongoTerminalRepository } from "./mongo-terminal-repository.js";

/**
 * Mongo stores over the service's database; creates the indexes first (idempotent).
 * `secretBox` seals terminal passwords and kept test keys: it must hold the same key on every start (and every
 * replica), or stored passwords cannot be read back.
 */
export async function createMongoAccountsRepositories(
  db: Db,
  options: { secretBox: SecretBox },
): Promise<AccountsRepositories> {
  await ensureAccountsIndexes(db);
  return {
    merchants: new MongoMerchantRepository(db),
    apiKeys: new MongoApiKeyRepository(db, options.secretBox),
    exchangeRates: new MongoExchangeRateRepository(db),
    terminals: new MongoTerminalRepository(db, options.secretBox),
    feePlans: new MongoFeePlanRepository(db),
    dashboard: await createMongoDashboardStores(db),
    businessVerifications: new MongoBusinessVerificationRepository(db),
    auditLog: new MongoAuditLogRepository(db),
  };
}
