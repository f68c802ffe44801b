import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { errorDetailInterceptor, GatewayError } from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { createAccountsRateProvider } from "../../src/adapters/accounts/accounts-rate-provider.js";

/** The rate provider against an accounts service that answers `getExchangeRate` with `answer`. */
function providerAnswering(answer: (currency: string) => string) {
  const transport = createRouterTransport(
    (router) => {
      router.service(AccountsService, {
        async getExchangeRate(req) {
          return { currency: req.currency, rate: answer(req.currency) };
        },
      });
    },
    { router: { interceptors: [errorDetailInterceptor("accounts.gateway")] } },
  );
  return createAccountsRateProvider(createClient(AccountsService, transport));
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

describe("accounts exchange-rate provider", () => {
  it("when a rate is configured, then it comes back with six decimals", async () => {
    const rates = providerAnswering(() => "3.4");
    expect(await rates.rateFor("mer_1", "EUR")).toBe("3.400000");
  });

  it("when accounts answers NOT_FOUND, then there is no rate", async () => {
    const rates = providerAnswering((currency) => {
      throw new GatewayError("NOT_FOUND", `No exchange rate is configured for ${currency}.`);
    });
    expect(await rates.rateFor("mer_1", "EUR")).toBeUndefined();
  });

  it("when accounts cannot be reached, then the failure propagates as SERVICE_UNAVAILABLE", async () => {
    // Nothing listens on port 1: the connection is refused, as when accounts is down.
    const client = createClient(AccountsService, createGrpcTransport({ baseUrl: "http://127.0.0.1:1" }));
    expect(await reasonOf(createAccountsRateProvider(client).rateFor("mer_1", "EUR"))).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });

  it("when accounts fails otherwise, then the failure propagates with its reason", async () => {
    const rates = providerAnswering(() => {
      throw new GatewayError("FORBIDDEN", "Not allowed.");
    });
    expect(await reasonOf(rates.rateFor("mer_1", "EUR"))).toBe("FORBIDDEN");
  });

  it("when accounts answers with an unusable rate, then it is an internal error, not a silent conversion", async () => {
    const rates = providerAnswering(() => "-1");
    expect(await reasonOf(rates.rateFor("mer_1", "EUR"))).toBe("INTERNAL");
  });
});
