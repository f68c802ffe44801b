import { ManualClock, SecretUnreadableError } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createMemoryAccountsRepositories } from "../src/adapters/memory/create-memory-accounts-repositories.js";
import type { AccountsDeps } from "../src/app/accounts-deps.js";
import { createMerchant, verifyMerchant } from "../src/app/merchants.js";
import { getTerminal, resolveTerminalCredentials, setTerminal } from "../src/app/terminals.js";
import type { Merchant } from "../src/domain/merchant.js";
import { expectGatewayError } from "./support/expect-gateway-error.js";

const PASSWORD = "Terminal-Password-That-Must-Not-Leak";
const SIMULATOR = {
  baseUrl: "http://localhost:8080/epg/rest",
  username: "sim-merchant",
  password: PASSWORD,
  active: true,
};

describe("terminals", () => {
  let clock: ManualClock;
  let deps: AccountsDeps;
  let merchant: Merchant;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 10));
    deps = { repos: createMemoryAccountsRepositories(), clock };
    merchant = await createMerchant(deps, { name: "Shop" });
  });

  it("when a test terminal is set, then it is returned and stored without its password, with the time of the change", async () => {
    const terminal = await setTerminal(deps, {
      merchantId: merchant.id,
      livemode: false,
      ...SIMULATOR,
      baseUrl: "http://localhost:8080/epg/rest/",
    });
    expect(terminal).toEqual({
      merchantId: merchant.id,
      livemode: false,
      baseUrl: "http://localhost:8080/epg/rest",
      username: "sim-merchant",
      active: true,
      updatedAt: clock.now(),
    });
    expect(JSON.stringify(terminal)).not.toContain(PASSWORD);
    expect(await getTerminal(deps, { merchantId: merchant.id, livemode: false })).toEqual(terminal);
  });

  it("when a terminal is set again, then it replaces the earlier one", async () => {
    await setTerminal(deps, { merchantId: merchant.id, livemode: false, ...SIMULATOR });
    clock.advance(60_000);
    await setTerminal(deps, {
      merchantId: merchant.id,
      livemode: false,
      ...SIMULATOR,
      username: "other",
      password: "new-password",
      active: false,
    });
    expect(await getTerminal(deps, { merchantId: merchant.id, livemode: false })).toMatchObject({
      username: "other",
      active: false,
      updatedAt: clock.now(),
    });
  });

  it("when a live terminal is set for an unverified merchant, then it is FORBIDDEN and nothing is stored", async () => {
    const err = await expectGatewayError(
      setTerminal(deps, {
        merchantId: merchant.id,
        livemode: true,
        ...SIMULATOR,
        baseUrl: "https://acquirer.example/rest",
      }),
      "FORBIDDEN",
    );
    expect(err.message).toBe("Live terminals require a verified merchant.");
    expect(await deps.repos.terminals.find(merchant.id, true)).toBeUndefined();
  });

  it("when a live terminal is set for a verified merchant, then its credentials resolve in live mode only", async () => {
    await verifyMerchant(deps, merchant.id);
    await setTerminal(deps, {
      merchantId: merchant.id,
      livemode: true,
      baseUrl: "https://acquirer.example/rest",
      username: "live-user",
      password: "live-pw",
      active: true,
    });
    expect(await resolveTerminalCredentials(deps, { merchantId: merchant.id, livemode: true })).toEqual({
      baseUrl: "https://acquirer.example/rest",
      username: "live-user",
      password: "live-pw",
    });
    await expectGatewayError(
      resolveTerminalCredentials(deps, { merchantId: merchant.id, livemode: false }),
      "NO_TERMINAL_CONFIGURED",
    );
  });

  it("when the input is invalid, then every violation is reported and none of them quotes the password", async () => {
    const err = await expectGatewayError(
      setTerminal(deps, {
        merchantId: merchant.id,
        livemode: true,
        baseUrl: "http://acquirer.example",
        username: "",
        password: PASSWORD.repeat(10),
        active: true,
      }),
      "VALIDATION_ERROR",
    );
    expect(err.violations.map(({ field, code }) => [field, code])).toEqual([
      ["base_url", "invalid"],
      ["username", "required"],
      ["password", "invalid"],
    ]);
    expect(JSON.stringify(err.violations) + err.message).not.toContain(PASSWORD);
  });

  it("when the merchant does not exist, then setting or reading a terminal is NOT_FOUND", async () => {
    await expectGatewayError(
      setTerminal(deps, { merchantId: "mer_missing", livemode: false, ...SIMULATOR }),
      "NOT_FOUND",
    );
    await expectGatewayError(getTerminal(deps, { merchantId: "mer_missing", livemode: false }), "NOT_FOUND");
  });

  it("when no terminal is set for the mode, then reading it is NOT_FOUND with the mode", async () => {
    const err = await expectGatewayError(
      getTerminal(deps, { merchantId: merchant.id, livemode: true }),
      "NOT_FOUND",
    );
    expect(err.metadata).toEqual({ mode: "live" });
  });

  describe("resolving credentials", () => {
    it("when the terminal is active, then the decrypted credentials come back", async () => {
      await setTerminal(deps, { merchantId: merchant.id, livemode: false, ...SIMULATOR });
      expect(await resolveTerminalCredentials(deps, { merchantId: merchant.id, livemode: false })).toEqual({
        baseUrl: "http://localhost:8080/epg/rest",
        username: "sim-merchant",
        password: PASSWORD,
      });
    });

    it("when no terminal is configured, then NO_TERMINAL_CONFIGURED names the mode", async () => {
      const err = await expectGatewayError(
        resolveTerminalCredentials(deps, { merchantId: merchant.id, livemode: false }),
        "NO_TERMINAL_CONFIGURED",
      );
      expect(err.message).toBe("No test terminal is configured for this account.");
      expect(err.metadata).toEqual({ mode: "test" });
    });

    it("when the terminal is inactive, then TERMINAL_INACTIVE, and its password is not even decrypted", async () => {
      await setTerminal(deps, { merchantId: merchant.id, livemode: false, ...SIMULATOR, active: false });
      let opened = 0;
      const findWithPassword = deps.repos.terminals.findWithPassword.bind(deps.repos.terminals);
      deps.repos.terminals.findWithPassword = async (merchantId, livemode) => {
        const stored = await findWithPassword(merchantId, livemode);
        return stored && { terminal: stored.terminal, openPassword: () => (opened++, stored.openPassword()) };
      };
      const err = await expectGatewayError(
        resolveTerminalCredentials(deps, { merchantId: merchant.id, livemode: false }),
        "TERMINAL_INACTIVE",
      );
      expect(err.message).toBe("The test terminal of this account is inactive.");
      expect(opened).toBe(0);
    });

    it("when the scope is missing or has no merchant, then it is a validation error", async () => {
      expect(
        (await expectGatewayError(resolveTerminalCredentials(deps, undefined), "VALIDATION_ERROR"))
          .violations[0]?.field,
      ).toBe("scope");
      expect(
        (
          await expectGatewayError(
            resolveTerminalCredentials(deps, { merchantId: " ", livemode: false }),
            "VALIDATION_ERROR",
          )
        ).violations[0]?.field,
      ).toBe("scope.merchant_id");
    });

    it("when the stored password cannot be decrypted, then the unreadable-secret error surfaces, without the password", async () => {
      await setTerminal(deps, { merchantId: merchant.id, livemode: false, ...SIMULATOR });
      const stored = (await deps.repos.terminals.findWithPassword(merchant.id, false))!;
      deps.repos.terminals.findWithPassword = async () => ({
        terminal: stored.terminal,
        openPassword: () => {
          throw new SecretUnreadableError("secret sealed with key abc, which is not configured");
        },
      });
      const err = await resolveTerminalCredentials(deps, { merchantId: merchant.id, livemode: false }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SecretUnreadableError);
      expect((err as Error).message).not.toContain(PASSWORD);
    });
  });
});
