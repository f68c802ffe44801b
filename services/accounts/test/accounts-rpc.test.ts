import { toJsonString } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, createClient } from "@connectrpc/connect";
import { createInProcessTransport, fromConnectError, ManualClock, readErrorDetail } from "@gateway/platform";
import { AccountsService, SetTerminalResponseSchema } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { createAccountsInterceptors, createAccountsRoutes } from "../src/accounts-module.js";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsRepositories } from "../src/app/ports.js";
import { createCaptureLogger } from "./support/capture-logger.js";
import { connectErrorOf } from "./support/connect-error-of.js";

describe("AccountsService over Connect", () => {
  let clock: ManualClock;
  let repos: AccountsRepositories;
  let client: Client<typeof AccountsService>;
  let logs: () => string;

  beforeEach(() => {
    clock = new ManualClock(Date.UTC(2026, 0, 10));
    repos = createMemoryAccountsRepositories();
    const capture = createCaptureLogger();
    logs = capture.text;
    client = createClient(
      AccountsService,
      createInProcessTransport({
        name: "accounts",
        routes: createAccountsRoutes({ repos, clock, logger: capture.logger }),
        logger: capture.logger,
        interceptors: createAccountsInterceptors(capture.logger),
      }),
    );
  });

  it("when a merchant is created, verified and given a live key, then the key authenticates in live mode", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    expect(merchant).toMatchObject({ name: "Shop", verified: false });
    expect(timestampDate(merchant!.createdAt!)).toEqual(clock.now());
    expect((await client.verifyMerchant({ merchantId: merchant!.id })).merchant?.verified).toBe(true);
    const created = await client.createApiKey({ merchantId: merchant!.id, livemode: true });
    expect(created.secret).toMatch(/^sk_live_/);
    expect(created.apiKey).toMatchObject({
      merchantId: merchant!.id,
      livemode: true,
      prefix: created.secret.slice(0, 20),
    });
    expect(created.apiKey?.revokedAt).toBeUndefined();
    expect(created.apiKey?.expiresAt).toBeUndefined();
    const auth = await client.authenticate({ apiKey: created.secret });
    expect(auth.scope).toMatchObject({ merchantId: merchant!.id, livemode: true });
    expect(auth.keyId).toBe(created.apiKey?.id);
  });

  it("when a key is created and rejected, then no log line carries it", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    const { secret, apiKey } = await client.createApiKey({ merchantId: merchant!.id, livemode: false });
    await client.revokeApiKey({ keyId: apiKey!.id });
    await connectErrorOf(client.authenticate({ apiKey: secret }));
    expect(logs()).toContain("API key created");
    expect(logs()).toContain("API key rejected");
    expect(logs()).not.toContain(secret.slice(20));
  });

  it("when a key expires, then its expiry crosses the wire and authentication fails afterwards", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    const { secret, apiKey } = await client.createApiKey({
      merchantId: merchant!.id,
      livemode: false,
      expiresAt: timestampFromDate(expiresAt),
    });
    expect(timestampDate(apiKey!.expiresAt!)).toEqual(expiresAt);
    clock.advance(60_000);
    const err = await connectErrorOf(client.authenticate({ apiKey: secret }));
    expect(err.code).toBe(Code.Unauthenticated);
  });

  it("when a key is unknown, then the error is UNAUTHENTICATED with reason UNAUTHORIZED in the detail", async () => {
    const err = await connectErrorOf(client.authenticate({ apiKey: "sk_test_nope" }));
    expect(err.code).toBe(Code.Unauthenticated);
    expect(err.rawMessage).toBe("Invalid API key.");
    expect(readErrorDetail(err)).toMatchObject({ reason: "UNAUTHORIZED", domain: "accounts.gateway" });
  });

  it("when a live key is asked for an unverified merchant, then it is PERMISSION_DENIED / FORBIDDEN", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    const err = await connectErrorOf(client.createApiKey({ merchantId: merchant!.id, livemode: true }));
    expect(err.code).toBe(Code.PermissionDenied);
    expect(fromConnectError(err).reason).toBe("FORBIDDEN");
  });

  it("when a key is revoked, then the revocation time is returned", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    const { apiKey } = await client.createApiKey({ merchantId: merchant!.id, livemode: false });
    const revoked = await client.revokeApiKey({ keyId: apiKey!.id });
    expect(timestampDate(revoked.apiKey!.revokedAt!)).toEqual(clock.now());
  });

  it("when a rate is set and read, then it comes back normalised", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    expect(
      await client.setExchangeRate({ merchantId: merchant!.id, currency: "EUR", rate: "3.25" }),
    ).toMatchObject({ currency: "EUR", rate: "3.250000" });
    expect(await client.getExchangeRate({ merchantId: merchant!.id, currency: "EUR" })).toMatchObject({
      currency: "EUR",
      rate: "3.250000",
    });
  });

  it("when no rate is configured, then the caller gets NOT_FOUND with the currency to build currency_unsupported", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    const err = fromConnectError(
      await connectErrorOf(client.getExchangeRate({ merchantId: merchant!.id, currency: "USD" })),
    );
    expect(err.reason).toBe("NOT_FOUND");
    expect(err.metadata).toEqual({ currency: "USD" });
  });

  it("when a rate is invalid, then the field violations travel to the caller", async () => {
    const { merchant } = await client.createMerchant({ name: "Shop" });
    const err = await connectErrorOf(
      client.setExchangeRate({ merchantId: merchant!.id, currency: "TND", rate: "-1" }),
    );
    expect(err.code).toBe(Code.InvalidArgument);
    expect(fromConnectError(err).violations.map(({ field, code }) => ({ field, code }))).toEqual([
      { field: "currency", code: "invalid" },
      { field: "rate", code: "invalid" },
    ]);
  });

  it("when a merchant is unknown, then GetMerchant is NOT_FOUND", async () => {
    const err = await connectErrorOf(client.getMerchant({ merchantId: "mer_missing" }));
    expect(err.code).toBe(Code.NotFound);
  });

  it("when the store fails unexpectedly, then the caller gets a generic INTERNAL error and the log has the cause", async () => {
    repos.merchants.findById = async () => {
      throw new Error("disk on fire");
    };
    const err = await connectErrorOf(client.getMerchant({ merchantId: "mer_any" }));
    expect(err.code).toBe(Code.Internal);
    expect(err.rawMessage).toBe("Internal error.");
    expect(logs()).toContain("disk on fire");
  });

  describe("terminals and fee plans", () => {
    const PASSWORD = "Wire-Password-Never-Echoed";

    async function verifiedMerchant(): Promise<string> {
      const { merchant } = await client.createMerchant({ name: "Terminal Shop" });
      await client.verifyMerchant({ merchantId: merchant!.id });
      return merchant!.id;
    }

    it("when a terminal is set, then the answer carries its settings without the password, and GetTerminal reads the same", async () => {
      const merchantId = await verifiedMerchant();
      const set = await client.setTerminal({
        merchantId,
        livemode: true,
        baseUrl: "https://acquirer.example/payment/rest/",
        username: "live-shop",
        password: PASSWORD,
        active: true,
      });
      expect(set.terminal).toMatchObject({
        merchantId,
        livemode: true,
        baseUrl: "https://acquirer.example/payment/rest",
        username: "live-shop",
        active: true,
      });
      expect(timestampDate(set.terminal!.updatedAt!)).toEqual(clock.now());
      expect(toJsonString(SetTerminalResponseSchema, set)).not.toContain(PASSWORD);
      const got = await client.getTerminal({ merchantId, livemode: true });
      expect(got.terminal).toEqual(set.terminal);
    });

    it("when credentials are resolved for the scope, then the decrypted password comes back, and no log line ever held it", async () => {
      const merchantId = await verifiedMerchant();
      await client.setTerminal({
        merchantId,
        livemode: false,
        baseUrl: "http://localhost:8080/epg/rest",
        username: "sim-merchant",
        password: PASSWORD,
        active: true,
      });
      const resolved = await client.resolveTerminalCredentials({ scope: { merchantId, livemode: false } });
      expect(resolved).toMatchObject({
        baseUrl: "http://localhost:8080/epg/rest",
        username: "sim-merchant",
        password: PASSWORD,
      });
      // Failing calls too: a bad base_url with a long password, a live terminal on http.
      await connectErrorOf(
        client.setTerminal({
          merchantId,
          livemode: true,
          baseUrl: "http://x",
          username: "u",
          password: PASSWORD.repeat(10),
          active: true,
        }),
      );
      expect(logs()).toContain("terminal set");
      expect(logs()).not.toContain(PASSWORD);
    });

    it("when no terminal is configured, then FAILED_PRECONDITION / NO_TERMINAL_CONFIGURED with the mode", async () => {
      const merchantId = await verifiedMerchant();
      const err = await connectErrorOf(
        client.resolveTerminalCredentials({ scope: { merchantId, livemode: true } }),
      );
      expect(err.code).toBe(Code.FailedPrecondition);
      expect(readErrorDetail(err)).toMatchObject({
        reason: "NO_TERMINAL_CONFIGURED",
        metadata: { mode: "live" },
      });
    });

    it("when the terminal is inactive, then FAILED_PRECONDITION / TERMINAL_INACTIVE", async () => {
      const merchantId = await verifiedMerchant();
      await client.setTerminal({
        merchantId,
        livemode: false,
        baseUrl: "http://localhost:8080/epg/rest",
        username: "u",
        password: PASSWORD,
        active: false,
      });
      const err = await connectErrorOf(
        client.resolveTerminalCredentials({ scope: { merchantId, livemode: false } }),
      );
      expect(err.code).toBe(Code.FailedPrecondition);
      expect(fromConnectError(err).reason).toBe("TERMINAL_INACTIVE");
      expect(err.rawMessage).not.toContain(PASSWORD);
    });

    it("when a live terminal is set for an unverified merchant, then PERMISSION_DENIED / FORBIDDEN", async () => {
      const { merchant } = await client.createMerchant({ name: "Unverified" });
      const err = await connectErrorOf(
        client.setTerminal({
          merchantId: merchant!.id,
          livemode: true,
          baseUrl: "https://acquirer.example/rest",
          username: "u",
          password: PASSWORD,
          active: true,
        }),
      );
      expect(err.code).toBe(Code.PermissionDenied);
      expect(fromConnectError(err).reason).toBe("FORBIDDEN");
    });

    it("when terminal fields are invalid, then INVALID_ARGUMENT with a violation per field", async () => {
      const merchantId = await verifiedMerchant();
      const err = await connectErrorOf(
        client.setTerminal({
          merchantId,
          livemode: false,
          baseUrl: "",
          username: "",
          password: "",
          active: true,
        }),
      );
      expect(err.code).toBe(Code.InvalidArgument);
      expect(fromConnectError(err).violations.map(({ field, code }) => [field, code])).toEqual([
        ["base_url", "required"],
        ["username", "required"],
        ["password", "required"],
      ]);
    });

    it("when GetTerminal finds none, then NOT_FOUND", async () => {
      const merchantId = await verifiedMerchant();
      expect((await connectErrorOf(client.getTerminal({ merchantId, livemode: false }))).code).toBe(
        Code.NotFound,
      );
    });

    it("when a fee plan is set and read, then it comes back normalised; a merchant without one has the zero plan", async () => {
      const merchantId = await verifiedMerchant();
      const before = await client.getFeePlan({ merchantId });
      expect(before.feePlan).toMatchObject({ merchantId, percent: "0", fixed: "0.000" });
      expect(before.feePlan?.updatedAt).toBeUndefined();
      const set = await client.setFeePlan({ merchantId, percent: "2.50", fixed: "0.300" });
      expect(set.feePlan).toMatchObject({ merchantId, percent: "2.5", fixed: "0.300" });
      expect(timestampDate(set.feePlan!.updatedAt!)).toEqual(clock.now());
      expect((await client.getFeePlan({ merchantId })).feePlan).toEqual(set.feePlan);
    });

    it("when fee plan values are invalid, then INVALID_ARGUMENT with percent and fixed", async () => {
      const merchantId = await verifiedMerchant();
      const err = await connectErrorOf(client.setFeePlan({ merchantId, percent: "abc", fixed: "1" }));
      expect(err.code).toBe(Code.InvalidArgument);
      expect(fromConnectError(err).violations.map((v) => v.field)).toEqual(["percent", "fixed"]);
    });
  });
});
