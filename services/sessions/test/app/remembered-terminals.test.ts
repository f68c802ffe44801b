import { GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { rememberActiveTerminals } from "../../src/app/remembered-terminals.js";
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
  it("when a terminal was active, then accounts is not asked again until the time is up", async () => {
    const { clock, accounts, scope, checks } = setup();
    accounts.set(scope.merchantId, TERMINAL);
    expect(await checks.terminalFor(scope)).toEqual(TERMINAL);
    clock.advance(4_999);
    expect(await checks.terminalFor(scope)).toEqual(TERMINAL);
    expect(accounts.lookups).toHaveLength(1);

    accounts.set(scope.merchantId, "TERMINAL_INACTIVE");
    clock.advance(1);
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
