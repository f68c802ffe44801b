import { createSecretBox, generateSecretsKey } from "@gateway/platform";
import { createQueryPlanDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { createMongoAccountsRepositories } from "../src/adapters/mongo/create-mongo-accounts-repositories.js";
import { createMongoDashboardStores } from "../src/adapters/mongo/mongo-dashboard-stores.js";
import { describeApiKeyRepositoryContract } from "./contracts/api-key-repository.contract.js";
import { describeAuditLogRepositoryContract } from "./contracts/audit-log-repository.contract.js";
import { describeBusinessVerificationRepositoryContract } from "./contracts/business-verification-repository.contract.js";
import { describeDashboardStoresContract } from "./contracts/dashboard-stores.contract.js";
import { describeExchangeRateRepositoryContract } from "./contracts/exchange-rate-repository.contract.js";
import { describeFeePlanRepositoryContract } from "./contracts/fee-plan-repository.contract.js";
import { describeMerchantRepositoryContract } from "./contracts/merchant-repository.contract.js";
import { describeTerminalRepositoryContract } from "./contracts/terminal-repository.contract.js";

// Issue 12: every query the accounts repositories send while their contracts run (merchants, API
// keys by hash, exchange rates and their history, terminals, fee plans, dashboard users,
// invitations, sign-in throttling and sessions) is recorded, then explained: pushed down on
// FerretDB, no collection scan on MongoDB, finds bounded (see the sessions twin).
const plans = createQueryPlanDb("accounts_plans");
afterAll(() => plans.close());

const secretBox = createSecretBox(generateSecretsKey());
const repositories = async () => createMongoAccountsRepositories(await plans.db(), { secretBox });
const recorded = "MongoDB wire server, queries recorded";

describeMerchantRepositoryContract(recorded, async () => (await repositories()).merchants);
describeApiKeyRepositoryContract(recorded, async () => (await repositories()).apiKeys);
describeExchangeRateRepositoryContract(recorded, async () => (await repositories()).exchangeRates);
describeTerminalRepositoryContract(
  recorded,
  async (box) => (await createMongoAccountsRepositories(await plans.db(), { secretBox: box })).terminals,
);
describeBusinessVerificationRepositoryContract(
  recorded,
  async () => (await repositories()).businessVerifications,
);
describeAuditLogRepositoryContract(recorded, async () => (await repositories()).auditLog);
describeFeePlanRepositoryContract(recorded, async () => (await repositories()).feePlans);
describeDashboardStoresContract(recorded, async () => createMongoDashboardStores(await plans.db()));

describe("query plans of the accounts service's Mongo repositories", () => {
  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    expect(plans.patterns().length).toBeGreaterThan(10);
    expect(await plans.failures()).toEqual([]);
  });
});
