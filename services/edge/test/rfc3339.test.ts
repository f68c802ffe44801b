import { timestampDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { formatTimestamp, parseRfc3339 } from "../src/mapping/rfc3339.js";

describe("parseRfc3339", () => {
  it("reads UTC, offsets and fractions to the nanosecond", () => {
    expect(timestampDate(parseRfc3339("2026-01-31T12:00:00Z")!).toISOString()).toBe(
      "2026-01-31T12:00:00.000Z",
    );
    expect(timestampDate(parseRfc3339("2026-01-31T12:00:00+01:30")!).toISOString()).toBe(
      "2026-01-31T10:30:00.000Z",
    );
    expect(timestampDate(parseRfc3339("2026-01-31t12:00:00-00:15")!).toISOString()).toBe(
      "2026-01-31T12:15:00.000Z",
    );
    const precise = parseRfc3339("2026-01-31T12:00:00.123456789Z")!;
    expect(precise.nanos).toBe(123_456_789);
    expect(parseRfc3339("2024-02-29T00:00:00Z")).toBeDefined();
    // Years below 100 are not shifted to 19xx (a Date.UTC pitfall); value from Python datetime.
    expect(parseRfc3339("0050-01-01T00:00:00Z")!.seconds).toBe(-60589296000n);
  });

  it.each([
    "2026-01-31",
    "2026-01-31T12:00:00",
    "2026-01-31 12:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T00:60:00Z",
    "2026-01-01T00:00:00+24:00",
    "2026-01-01T00:00:00.Z",
    "2026-01-01T00:00:00.1234567890Z",
    "0000-01-01T00:00:00Z",
    "1700000000",
  ])("refuses %s", (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });

  it("formats in UTC with milliseconds, null when unset", () => {
    expect(formatTimestamp(parseRfc3339("2026-05-01T08:09:10.5+02:00"))).toBe("2026-05-01T06:09:10.500Z");
    expect(formatTimestamp(undefined)).toBeNull();
  });
});
