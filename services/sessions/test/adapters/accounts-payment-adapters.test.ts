import { createClient, createRouterTransport, type ServiceImpl } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createAccountsTerminalProvider } from "@gateway/accounts-client";
import { errorDetailInterceptor, GatewayError } from "@gateway/platform";
import { AccountsService } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { createAccountsFeePlanProvider } from "../../src/adapters/accounts/accounts-fee-plan-provider.js";
import { createAccountsMerchantDirectory } from "../../src/adapters/accounts/accounts-merchant-directory.js";

/** A client of an accounts service implementing `impl`, behind the same error-detail interceptor. */
function accountsAnswering(impl: Partial<ServiceImpl<typeof AccountsService>>) {
  const transport = createRouterTransport((router) => router.service(AccountsService, impl), {
    router: { interceptors: [errorDetailInterceptor("accounts.gateway")] },
  });
  return createClient(AccountsService, transport);
}

/** Nothing listens on port 1: the connection is refused, as when accounts is down. */
const downAccounts = () =>
  createClient(AccountsService, createGrpcTransport({ baseUrl: "http://127.0.0.1:1" }));

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

describe("accounts terminal provider", () => {
  it("when a terminal is configured, then its credentials are resolved for the session's scope", async () => {
    const asked: unknown[] = [];
    const terminals = createAccountsTerminalProvider(
      accountsAnswering({
        async resolveTerminalCredentials(req) {
          asked.push(req.scope);
          return { baseUrl: "https://epg.example/rest", username: "shop", password: "s3cret" };
        },
      }),
    );
    expect(await terminals.terminalFor({ merchantId: "mer_1", livemode: true })).toEqual({
      baseUrl: "https://epg.example/rest",
      username: "shop",
      password: "s3cret",
    });
    expect(asked).toMatchObject([{ merchantId: "mer_1", livemode: true }]);
  });

  it.each(["NO_TERMINAL_CONFIGURED", "TERMINAL_INACTIVE"] as const)(
    "when accounts answers %s, then that reason propagates",
    async (reason) => {
      const terminals = createAccountsTerminalProvider(
        accountsAnswering({
          async resolveTerminalCredentials() {
            throw new GatewayError(reason, "The terminal cannot be used.");
          },
        }),
      );
      expect(await reasonOf(terminals.terminalFor({ merchantId: "mer_1", livemode: false }))).toBe(reason);
    },
  );

  it("when accounts answers an incomplete terminal, then it is an internal error, and when it is down, retryable", async () => {
    const incomplete = createAccountsTerminalProvider(
      accountsAnswering({
        resolveTerminalCredentials: async () => ({ baseUrl: "", username: "", password: "" }),
      }),
    );
    expect(await reasonOf(incomplete.terminalFor({ merchantId: "mer_1", livemode: false }))).toBe("INTERNAL");
    expect(
      await reasonOf(
        createAccountsTerminalProvider(downAccounts()).terminalFor({ merchantId: "mer_1", livemode: false }),
      ),
    ).toBe("SERVICE_UNAVAILABLE");
  });
});

describe("accounts fee plan provider", () => {
  const answering = (plan: { percent: string; fixed: string } | undefined) =>
    createAccountsFeePlanProvider(
      accountsAnswering({
        getFeePlan: async (req) => (plan ? { feePlan: { merchantId: req.merchantId, ...plan } } : {}),
      }),
    );

  it("when a plan is set, then percent is kept as decimal text and the fixed fee becomes TND minor units", async () => {
    expect(await answering({ percent: "2.5000", fixed: "0.250" }).feePlanFor("mer_1")).toEqual({
      percent: "2.5000",
      fixedMinor: 250n,
    });
    expect(await answering({ percent: "0", fixed: "1" }).feePlanFor("mer_1")).toEqual({
      percent: "0",
      fixedMinor: 1000n,
    });
  });

  it("when the merchant has no plan, then the plan is zero", async () => {
    expect(await answering(undefined).feePlanFor("mer_1")).toEqual({ percent: "0", fixedMinor: 0n });
    expect(await answering({ percent: "", fixed: "" }).feePlanFor("mer_1")).toEqual({
      percent: "0",
      fixedMinor: 0n,
    });
  });

  it.each([
    ["100", "0.000"],
    ["-1", "0.000"],
    ["1.23456", "0.000"],
    ["2", "-0.100"],
    ["2", "0.0001"],
    ["2", "1e3"],
  ])(
    "when accounts answers percent %s and fixed %s, then it is an internal error, never a guessed fee",
    async (percent, fixed) => {
      expect(await reasonOf(answering({ percent, fixed }).feePlanFor("mer_1"))).toBe("INTERNAL");
    },
  );

  it("when accounts is down, then it is retryable", async () => {
    expect(await reasonOf(createAccountsFeePlanProvider(downAccounts()).feePlanFor("mer_1"))).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });
});

describe("accounts merchant directory", () => {
  it("when the merchant exists, then its name is known; when it does not, there is none", async () => {
    const merchants = createAccountsMerchantDirectory(
      accountsAnswering({
        async getMerchant(req) {
          if (req.merchantId !== "mer_1") throw GatewayError.notFound("merchant", req.merchantId);
          return { merchant: { id: "mer_1", name: "Patisserie Masmoudi", verified: true } };
        },
      }),
    );
    expect(await merchants.merchantName("mer_1")).toBe("Patisserie Masmoudi");
    expect(await merchants.merchantName("mer_2")).toBeUndefined();
  });

  it("when accounts is down, then it is retryable", async () => {
    expect(await reasonOf(createAccountsMerchantDirectory(downAccounts()).merchantName("mer_1"))).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });
});
