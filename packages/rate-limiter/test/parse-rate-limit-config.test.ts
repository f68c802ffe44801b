import { describe, expect, it } from "vitest";
import { defaultRateLimitPolicy, parseRateLimitConfig } from "../src/index.js";

describe("parseRateLimitConfig (GATEWAY_RATE_LIMITS)", () => {
  it("when unset or blank, then the spec defaults apply", () => {
    expect(parseRateLimitConfig(undefined)).toEqual(defaultRateLimitPolicy);
    expect(parseRateLimitConfig("  ")).toEqual(defaultRateLimitPolicy);
  });

  it("when the defaults are read, then they are the spec's rates with a one-second burst", () => {
    expect(defaultRateLimitPolicy).toEqual({
      live: {
        account: { ratePerSec: 25, burst: 25 },
        create: { ratePerSec: 10, burst: 10 },
        refund: { ratePerSec: 5, burst: 5 },
      },
      test: {
        account: { ratePerSec: 10, burst: 10 },
        create: { ratePerSec: 5, burst: 5 },
        refund: { ratePerSec: 2, burst: 2 },
      },
    });
  });

  it("when set to off (any case), then rate limiting is disabled", () => {
    expect(parseRateLimitConfig("off")).toBe("off");
    expect(parseRateLimitConfig(" OFF ")).toBe("off");
  });

  it("when overrides are given, then they replace only the named budgets", () => {
    const policy = parseRateLimitConfig("live.account=50, test.create=5/10 ,live.refund=0.5");
    expect(policy).not.toBe("off");
    if (policy === "off") return;
    expect(policy.live.account).toEqual({ ratePerSec: 50, burst: 50 });
    expect(policy.test.create).toEqual({ ratePerSec: 5, burst: 10 });
    expect(policy.live.refund).toEqual({ ratePerSec: 0.5, burst: 1 });
    expect(policy.live.create).toEqual(defaultRateLimitPolicy.live.create);
    expect(policy.test.account).toEqual(defaultRateLimitPolicy.test.account);
  });

  it("when overrides are parsed, then the shared defaults are not modified", () => {
    parseRateLimitConfig("live.account=1");
    expect(defaultRateLimitPolicy.live.account).toEqual({ ratePerSec: 25, burst: 25 });
  });

  it.each([
    ["live.account", /has no "="/],
    ["prod.account=5", /"prod\.account" is not <live\|test>\.<budget>/],
    ["live.payout=5", /unknown budget "payout"/],
    ["live.account.extra=5", /is not <live\|test>\.<budget>/],
    ["live.account=fast", /<requests per second>\[\/<burst>\]/],
    ["live.account=-1", /<requests per second>/],
    ["live.account=0", /greater than 0/],
    ["live.account=5/0", /burst must be a whole number/],
    ["live.account=5/2.5", /burst must be a whole number/],
    ["live.account=5/2/1", /<requests per second>/],
    ["live.account=5,,test.create=1", /empty entry/],
    ["live.account=5,live.account=6", /set twice/],
    ["live.refund=0.01", /takes 100 s to refill; at most 60 s/],
  ])("when the value is %j, then it is rejected with a clear message", (raw, message) => {
    expect(() => parseRateLimitConfig(raw)).toThrow(message);
    expect(() => parseRateLimitConfig(raw)).toThrow(/^GATEWAY_RATE_LIMITS: /);
  });
});
