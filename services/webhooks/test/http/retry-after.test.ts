import { describe, expect, it } from "vitest";
import { parseHttpDate, parseRetryAfter } from "../../src/adapters/http/index.js";

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

describe("parseRetryAfter", () => {
  it("when given delay-seconds, then it returns them in milliseconds", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
  });

  it("when given an HTTP-date ahead of now, then it returns the wait until then", () => {
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:05:00 GMT", NOW)).toBe(300_000);
  });

  it("when given an HTTP-date already past, then the wait is zero", () => {
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", NOW)).toBe(0);
  });

  it.each([
    ["soon"],
    ["-5"],
    ["1.5"],
    ["2026-03-01T12:05:00Z"],
    [""],
    ["9".repeat(30)],
    ["Sun, 01 Xyz 2026 12:05:00 GMT"],
  ])("when the value is not a delay or an HTTP-date (%s), then it is ignored", (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it("when absent, then there is no wait", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});

describe("parseHttpDate", () => {
  const expected = Date.UTC(1994, 10, 6, 8, 49, 37);
  it.each([
    ["IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT"],
    ["RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT"],
    ["asctime", "Sun Nov  6 08:49:37 1994"],
  ])("when the date is in the %s form, then it is read as UTC", (_form, text) => {
    expect(parseHttpDate(text)).toBe(expected);
  });
});
