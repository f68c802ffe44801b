import { describe, expect, it } from "vitest";
import { type Decision, rateLimitHeaders } from "../src/index.js";
import { checkTimes, LIVE_ACCOUNT, limiterOverMemory } from "./limiter-test-support.js";

const allowed: Decision = {
  allowed: true,
  limit: 25,
  remaining: 24,
  resetMs: 40,
  retryAfterMs: 0,
  budget: "account",
  windowMs: 1000,
};

describe("rateLimitHeaders", () => {
  it("when the request is allowed, then the RateLimit fields are set and Retry-After is absent", () => {
    expect(rateLimitHeaders(allowed)).toEqual({
      "RateLimit-Limit": "25",
      "RateLimit-Remaining": "24",
      "RateLimit-Reset": "1",
      "RateLimit-Policy": "25;w=1",
    });
  });

  it.each([
    { retryAfterMs: 1, expected: "1" },
    { retryAfterMs: 40, expected: "1" },
    { retryAfterMs: 1000, expected: "1" },
    { retryAfterMs: 1001, expected: "2" },
    { retryAfterMs: 2500, expected: "3" },
  ])(
    "when denied with retryAfterMs $retryAfterMs, then Retry-After is $expected (whole seconds, rounded up)",
    ({ retryAfterMs, expected }) => {
      const headers = rateLimitHeaders({
        ...allowed,
        allowed: false,
        remaining: 0,
        resetMs: 1000,
        retryAfterMs,
      });
      expect(headers["Retry-After"]).toBe(expected);
      expect(headers["RateLimit-Remaining"]).toBe("0");
    },
  );

  it("when denied with a zero wait (a contract breach), then Retry-After is still at least 1", () => {
    expect(rateLimitHeaders({ ...allowed, allowed: false, retryAfterMs: 0 })["Retry-After"]).toBe("1");
  });

  it("when the bucket is full, then RateLimit-Reset is 0", () => {
    expect(rateLimitHeaders({ ...allowed, resetMs: 0 })["RateLimit-Reset"]).toBe("0");
  });

  it("when the burst window is longer than a second, then the policy window says so in whole seconds", () => {
    expect(rateLimitHeaders({ ...allowed, limit: 20, windowMs: 2000 })["RateLimit-Policy"]).toBe("20;w=2");
    expect(rateLimitHeaders({ ...allowed, limit: 4, windowMs: 1333.3 })["RateLimit-Policy"]).toBe("4;w=2");
  });

  it("when the decision has no window, then the policy window is one second", () => {
    const { windowMs: _omitted, ...withoutWindow } = allowed;
    expect(rateLimitHeaders(withoutWindow)["RateLimit-Policy"]).toBe("25;w=1");
  });

  it("when a real limiter denies a test-mode refund, then the headers describe the refund budget and a retry after them is admitted", async () => {
    const { limiter, clock } = limiterOverMemory();
    const refund = {
      merchantId: "mer_Headers01",
      livemode: false,
      budgets: ["account", "refund"] as ["account", "refund"],
    };
    await checkTimes(limiter, 2, refund);
    const denied = await limiter.check(refund);
    const headers = rateLimitHeaders(denied);
    expect(headers).toEqual({
      "RateLimit-Limit": "2",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "1",
      "RateLimit-Policy": "2;w=1",
      "Retry-After": "1",
    });
    clock.advance(Number(headers["Retry-After"]) * 1000);
    expect((await limiter.check(refund)).allowed).toBe(true);
    expect(
      rateLimitHeaders(await limiter.check({ merchantId: "mer_Headers01", ...LIVE_ACCOUNT }))[
        "RateLimit-Limit"
      ],
    ).toBe("25");
  });
});
