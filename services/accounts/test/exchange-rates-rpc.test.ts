import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, createClient } from "@connectrpc/connect";
import { fromConnectError, ManualClock } from "@gateway/platform";
import { AccountsService, DashboardUsersService, ExchangeRatesService } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { connectErrorOf } from "./support/connect-error-of.js";
import { inProcessAccounts } from "./support/in-process-accounts.js";

describe("ExchangeRatesService over Connect (the dashboard's currency settings)", () => {
  let clock: ManualClock;
  let accounts: Client<typeof AccountsService>;
  let users: Client<typeof DashboardUsersService>;
  let rates: Client<typeof ExchangeRatesService>;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
    const { transport } = inProcessAccounts(clock);
    accounts = createClient(AccountsService, transport);
    users = createClient(DashboardUsersService, transport);
    rates = createClient(ExchangeRatesService, transport);
  });

  async function merchantWithUser(name: string): Promise<{ merchantId: string; userId: string }> {
    const { merchant } = await accounts.createMerchant({ name });
    const invited = await users.inviteUser({
      merchantId: merchant!.id,
      email: `owner@${name.toLowerCase()}.example`,
      role: "owner",
      invitedBy: "operator",
    });
    const accepted = await users.acceptInvitation({
      invitationToken: invited.invitationToken,
      password: "correct horse battery staple",
    });
    return { merchantId: merchant!.id, userId: accepted.user!.id };
  }

  it("when a merchant user sets a rate, then session create's lookup (GetExchangeRate) answers it", async () => {
    const { merchantId, userId } = await merchantWithUser("Shop");
    const missing = await connectErrorOf(accounts.getExchangeRate({ merchantId, currency: "EUR" }));
    expect([missing.code, fromConnectError(missing).metadata]).toEqual([Code.NotFound, { currency: "EUR" }]);

    const { exchangeRate } = await rates.setMerchantExchangeRate({
      merchantId,
      currency: "eur",
      rate: "3.4",
      userId,
    });
    expect(exchangeRate).toMatchObject({
      merchantId,
      currency: "EUR",
      rate: "3.400000",
      setByUserId: userId,
    });
    expect(timestampDate(exchangeRate!.setAt!)).toEqual(clock.now());
    expect(await accounts.getExchangeRate({ merchantId, currency: "EUR" })).toMatchObject({
      rate: "3.400000",
    });
  });

  it("when rates change over time, then the list shows the current ones and the history every change with its author", async () => {
    const { merchantId, userId } = await merchantWithUser("Shop");
    await rates.setMerchantExchangeRate({ merchantId, currency: "USD", rate: "3.1", userId });
    clock.advance(60_000);
    await rates.setMerchantExchangeRate({ merchantId, currency: "EUR", rate: "3.4", userId });
    clock.advance(60_000);
    await accounts.setExchangeRate({ merchantId, currency: "EUR", rate: "3.45" });

    const current = await rates.listExchangeRates({ merchantId });
    expect(current.exchangeRates.map((r) => [r.currency, r.rate, r.setByUserId])).toEqual([
      ["EUR", "3.450000", ""],
      ["USD", "3.100000", userId],
    ]);
    const history = await rates.listExchangeRateHistory({ merchantId, currency: "", limit: 0 });
    expect(history.exchangeRates.map((r) => [r.currency, r.rate, r.setByUserId])).toEqual([
      ["EUR", "3.450000", ""],
      ["EUR", "3.400000", userId],
      ["USD", "3.100000", userId],
    ]);
    const eurOnly = await rates.listExchangeRateHistory({ merchantId, currency: "eur", limit: 1 });
    expect(eurOnly.exchangeRates.map((r) => r.rate)).toEqual(["3.450000"]);
  });

  it("when the user belongs to another merchant, is missing or the input is bad, then nothing is set", async () => {
    const { merchantId } = await merchantWithUser("Shop");
    const other = await merchantWithUser("Other");

    const foreign = await connectErrorOf(
      rates.setMerchantExchangeRate({ merchantId, currency: "EUR", rate: "3.4", userId: other.userId }),
    );
    expect(foreign.code).toBe(Code.NotFound);
    const anonymous = await connectErrorOf(
      rates.setMerchantExchangeRate({ merchantId, currency: "EUR", rate: "3.4", userId: " " }),
    );
    expect([anonymous.code, fromConnectError(anonymous).violations.map((v) => v.field)]).toEqual([
      Code.InvalidArgument,
      ["user_id"],
    ]);
    const bad = await connectErrorOf(
      rates.setMerchantExchangeRate({ merchantId, currency: "TND", rate: "3.4567891", userId: other.userId }),
    );
    expect(fromConnectError(bad).violations.map((v) => v.field)).toEqual(["currency", "rate"]);
    const badLimit = await connectErrorOf(
      rates.listExchangeRateHistory({ merchantId, currency: "", limit: 201 }),
    );
    expect(fromConnectError(badLimit).violations.map((v) => v.field)).toEqual(["limit"]);

    expect((await rates.listExchangeRates({ merchantId })).exchangeRates).toEqual([]);
    expect(
      (await rates.listExchangeRateHistory({ merchantId, currency: "", limit: 0 })).exchangeRates,
    ).toEqual([]);
    const unknown = await connectErrorOf(rates.listExchangeRates({ merchantId: "mer_missing" }));
    expect(unknown.code).toBe(Code.NotFound);
  });
});
