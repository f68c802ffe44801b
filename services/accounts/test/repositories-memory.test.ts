import { inspect } from "node:util";
import { createSecretBox, generateSecretsKey } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import { createInMemoryDashboardStores } from "../src/adapters/memory/in-memory-dashboard-stores.js";
import { InMemoryTerminalRepository } from "../src/adapters/memory/in-memory-terminal-repository.js";
import { describeApiKeyRepositoryContract } from "./contracts/api-key-repository.contract.js";
import { describeAuditLogRepositoryContract } from "./contracts/audit-log-repository.contract.js";
import { describeBusinessVerificationRepositoryContract } from "./contracts/business-verification-repository.contract.js";
import { describeDashboardStoresContract } from "./contracts/dashboard-stores.contract.js";
import { describeExchangeRateRepositoryContract } from "./contracts/exchange-rate-repository.contract.js";
import { describeFeePlanRepositoryContract } from "./contracts/fee-plan-repository.contract.js";
import { describeMerchantRepositoryContract } from "./contracts/merchant-repository.contract.js";
import { describeTerminalRepositoryContract } from "./contracts/terminal-repository.contract.js";

describeMerchantRepositoryContract("in memory", async () => createMemoryAccountsRepositories().merchants);
describeApiKeyRepositoryContract("in memory", async () => createMemoryAccountsRepositories().apiKeys);
describeExchangeRateRepositoryContract(
  "in memory",
  async () => createMemoryAccountsRepositories().exchangeRates,
);
describeTerminalRepositoryContract(
  "in memory",
  async (secretBox) => createMemoryAccountsRepositories({ secretBox }).terminals,
);
describeBusinessVerificationRepositoryContract(
  "in memory",
  async () => createMemoryAccountsRepositories().businessVerifications,
);
describeAuditLogRepositoryContract("in memory", async () => createMemoryAccountsRepositories().auditLog);
describeFeePlanRepositoryContract("in memory", async () => createMemoryAccountsRepositories().feePlans);

describe("in-memory terminal storage", () => {
  it("when a terminal is stored, then the store's state holds the password only sealed", async () => {
    const terminals = new InMemoryTerminalRepository(createSecretBox(generateSecretsKey()));
    const merchantId = "mer_inspect";
    await terminals.upsert(
      {
        merchantId,
        livemode: false,
        baseUrl: "http://sim/epg/rest",
        username: "u",
        active: true,
        updatedAt: new Date(0),
      },
      "plain-text-password",
    );
    const state = inspect(terminals, { depth: null });
    expect(state).toContain("sealedPassword");
    expect(state).not.toContain("plain-text-password");
  });

  it("when no box is given, then the repositories make their own key and read back their own terminals", async () => {
    const repos = createMemoryAccountsRepositories();
    await repos.terminals.upsert(
      {
        merchantId: "mer_1",
        livemode: false,
        baseUrl: "http://sim/epg/rest",
        username: "u",
        active: true,
        updatedAt: new Date(0),
      },
      "pw",
    );
    expect((await repos.terminals.findWithPassword("mer_1", false))?.openPassword()).toBe("pw");
  });
});

describeDashboardStoresContract("in memory", async () => createInMemoryDashboardStores());
