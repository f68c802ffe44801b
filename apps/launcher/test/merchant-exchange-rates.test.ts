import { type Client, ConnectError, createClient } from "@connectrpc/connect";
import {
  createAccountsInterceptors,
  createAccountsRoutes,
  createMemoryAccountsRepositories,
} from "@gateway/accounts";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import { createEpgAcquirer } from "@gateway/acquirer";
import { createInProcessTransport, createLogger, fromConnectError, ManualClock } from "@gateway/platform";
import {
  type AccountScope,
  AccountsService,
  DashboardUsersService,
  ExchangeRatesService,
  SessionService,
} from "@gateway/proto";
import {
  createAccountsFeePlanProvider,
  createAccountsMerchantDirectory,
  createAccountsRateProvider,
  createMemorySessionRepository,
  createSessionsRoutes,
} from "@gateway/sessions";
import { beforeEach, describe, expect, it } from "vitest";

// The real accounts and sessions routes, wired as embedded mode wires them: the rate a merchant's
// dashboard user sets is the one session create prices a foreign currency with.
describe("a merchant's own exchange rate, end to end through accounts and sessions", () => {
  let accounts: Client<typeof AccountsService>;
  let users: Client<typeof DashboardUsersService>;
  let rates: Client<typeof ExchangeRatesService>;
  let sessions: Client<typeof SessionService>;

  beforeEach(() => {
    const clock = new ManualClock(Date.UTC(2026, 10, 24, 9));
    const logger = createLogger({ service: "rates-test", level: "silent" });
    const accountsTransport = createInProcessTransport({
      name: "accounts",
      routes: createAccountsRoutes({ repos: createMemoryAccountsRepositories(), clock, logger }),
      logger,
      interceptors: createAccountsInterceptors(logger),
    });
    accounts = createClient(AccountsService, accountsTransport);
    users = createClient(DashboardUsersService, accountsTransport);
    rates = createClient(ExchangeRatesService, accountsTransport);
    sessions = createClient(
      SessionService,
      createInProcessTransport({
        name: "sessions",
        routes: createSessionsRoutes({
          repo: createMemorySessionRepository(),
          rates: createAccountsRateProvider(accounts),
          acquirer: createEpgAcquirer({ timeoutMs: 5_000 }),
          terminals: createAccountsTerminalProvider(accounts),
          fees: createAccountsFeePlanProvider(accounts),
          merchants: createAccountsMerchantDirectory(accounts),
          clock,
          logger,
          config: {
            publicBaseUrl: "https://pay.example.test",
            sessionLifetimeMs: 3_600_000,
            checkoutLinkLifetimeMs: 900_000,
          },
        }),
        logger,
      }),
    );
  });

  async function merchantOwner(): Promise<{ scope: AccountScope; userId: string }> {
    const { merchant } = await accounts.createMerchant({ name: "Rates Shop" });
    // Session create checks the account can take payments; no acquirer call is made here.
    await accounts.setTerminal({
      merchantId: merchant!.id,
      livemode: false,
      baseUrl: "https://epg.example.test",
      username: "terminal",
      password: "terminal-password",
      active: true,
    });
    const invited = await users.inviteUser({
      merchantId: merchant!.id,
      email: "owner@rates.example",
      role: "owner",
      invitedBy: "operator",
    });
    const { user } = await users.acceptInvitation({
      invitationToken: invited.invitationToken,
      password: "correct horse battery staple",
    });
    return { scope: { merchantId: merchant!.id, livemode: false } as AccountScope, userId: user!.id };
  }

  it("when no EUR rate is set, then a EUR create is currency_unsupported; once the merchant sets one, it is priced with it", async () => {
    const { scope, userId } = await merchantOwner();
    const refused = await sessions
      .createSession({ scope, merchantReference: "eur-1", amount: "10.00", currency: "EUR" })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectError);
    const problem = fromConnectError(refused);
    expect(problem.violations.map((v) => [v.field, v.code])).toEqual([["currency", "currency_unsupported"]]);
    expect(problem.violations[0]!.message).toMatch(/dashboard/i);

    await rates.setMerchantExchangeRate({
      merchantId: scope.merchantId,
      currency: "EUR",
      rate: "3.25",
      userId,
    });
    const { session } = await sessions.createSession({
      scope,
      merchantReference: "eur-1",
      amount: "10.00",
      currency: "EUR",
    });
    expect(session).toMatchObject({
      amount: "32.500",
      currency: "TND",
      original: { amount: "10.00", currency: "EUR", rate: "3.250000" },
    });
  });
});
