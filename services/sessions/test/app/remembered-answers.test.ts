import { GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import type { MerchantDirectory } from "../../src/app/ports.js";
import { rememberActiveTerminals, rememberMerchantNames } from "../../src/app/remembered-answers.js";
import { newScope } from "../support/fixtures.js";
import { fakeTerminals } from "../support/payment-fakes.js";

const TERMINAL = { baseUrl: "http://127.0.0.1:9/epg/rest", username: "u", password: "p" };

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 9));
  const accounts = fakeTerminals();
  const scope = newScope();
  return { clock, accounts, scope, checks: rememberActiveTerminals(accounts, clock, 5_000) };
}

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (err: unknown) => (err instanceof GatewayError ? err.reason : String(err)),
  );

describe("rememberActiveTerminals", () => {
  it("when a terminal was active, then accounts is not asked again in the first half of the time, and a refusal shows once it is up", async () => {
    const { clock, accounts, scope, checks } = setup();
    accounts.set(scope.merchantId, TERMINAL);
    expect(await checks.terminalFor(scope)).toEqual(TERMINAL);
    clock.advance(2_499);
    expect(await checks.terminalFor(scope)).toEqual(TERMINAL);
    expect(accounts.lookups).toHaveLength(1);

    accounts.set(scope.merchantId, "TERMINAL_INACTIVE");
    clock.advance(2_501);
    expect(await reasonOf(checks.terminalFor(scope))).toBe("TERMINAL_INACTIVE");
    expect(accounts.lookups).toHaveLength(2);
  });

  it("when accounts refuses or fails, then the next check asks again", async () => {
    const { accounts, scope, checks } = setup();
    for (const refusal of ["NO_TERMINAL_CONFIGURED", "TERMINAL_INACTIVE", "SERVICE_UNAVAILABLE"] as const) {
      accounts.set(scope.merchantId, refusal);
      expect(await reasonOf(checks.terminalFor(scope))).toBe(refusal);
    }
    accounts.set(scope.merchantId, TERMINAL);
    expect(await checks.terminalFor(scope)).toEqual(TERMINAL);
    expect(accounts.lookups).toHaveLength(4);
  });

  it("when creates check at once, then they share one question to accounts", async () => {
    const { accounts, scope, checks } = setup();
    accounts.set(scope.merchantId, TERMINAL);
    await Promise.all(Array.from({ length: 20 }, () => checks.terminalFor(scope)));
    expect(accounts.lookups).toHaveLength(1);
  });

  it("when the mode or the merchant differ, then each is asked for on its own", async () => {
    const { accounts, scope, checks } = setup();
    const other = newScope();
    accounts.set(scope.merchantId, TERMINAL);
    await checks.terminalFor(scope);
    expect(await reasonOf(checks.terminalFor({ ...scope, livemode: !scope.livemode }))).toBe("ok");
    expect(await reasonOf(checks.terminalFor(other))).toBe("NO_TERMINAL_CONFIGURED");
    expect(accounts.lookups).toEqual([scope, { ...scope, livemode: !scope.livemode }, other]);
  });
});

describe("rememberMerchantNames", () => {
  it("when a merchant is renamed, then its old name is shown until the time is up; a failed lookup is asked again", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 9));
    const names = new Map([["mer_1", "Old name"]]);
    let asked = 0;
    let down = false;
    const directory: MerchantDirectory = {
      merchantName: async (merchantId) => {
        asked++;
        if (down)
          throw new GatewayError("SERVICE_UNAVAILABLE", "A gateway dependency is temporarily unavailable.");
        return names.get(merchantId);
      },
    };
    const remembered = rememberMerchantNames(directory, clock, 5_000);
    expect(await remembered.merchantName("mer_1")).toBe("Old name");
    names.set("mer_1", "New name");
    clock.advance(4_999);
    expect(await remembered.merchantName("mer_1")).toBe("Old name");
    expect(await remembered.merchantName("mer_unknown")).toBeUndefined();
    clock.advance(1);
    expect(await remembered.merchantName("mer_1")).toBe("New name");
    expect(asked).toBe(3);

    down = true;
    clock.advance(5_000);
    expect(await reasonOf(remembered.merchantName("mer_1"))).toBe("SERVICE_UNAVAILABLE");
    down = false;
    expect(await remembered.merchantName("mer_1")).toBe("New name");
    expect(asked).toBe(5);
  });
});
