import { create } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
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

describe("formatTimestamp", () => {
  const asDateWrites = (ts: Timestamp) => timestampDate(ts).toISOString();
  const at = (seconds: bigint, nanos = 0) => create(TimestampSchema, { seconds, nanos });

  it("writes what Date#toISOString writes, on the calendar's edges", () => {
    const edges = [
      "1970-01-01T00:00:00.000Z",
      "1972-02-29T23:59:59.999Z",
      "1999-12-31T23:59:59.999Z",
      "2000-02-29T12:00:00.000Z",
      "2000-03-01T00:00:00.000Z",
      "2100-02-28T23:59:59.999Z",
      "2100-03-01T00:00:00.000Z",
      "2400-02-29T00:00:00.001Z",
      "9999-12-31T23:59:59.999Z",
    ];
    for (const text of edges) expect(formatTimestamp(timestampFromDate(new Date(text)))).toBe(text);
  });

  it("writes what Date#toISOString writes, for instants spread over 1970 to 9999", () => {
    // A fixed linear congruential sequence, so a failure names an instant that fails again.
    let state = 20_261_127;
    for (let i = 0; i < 20_000; i++) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const ms = Math.floor((state / 2 ** 31) * 253_402_300_800_000);
      const ts = timestampFromDate(new Date(ms));
      expect(formatTimestamp(ts), `at ${ms} ms`).toBe(asDateWrites(ts));
    }
  });

  it("rounds nanoseconds up to the millisecond, as timestampDate does, across a second", () => {
    expect(formatTimestamp(at(1_700_000_000n, 1))).toBe("2023-11-14T22:13:20.001Z");
    expect(formatTimestamp(at(1_700_000_000n, 999_999_999))).toBe("2023-11-14T22:13:21.000Z");
  });

  it("writes instants before 1970 or after 9999 as Date does, and refuses what Date cannot hold", () => {
    for (const ts of [
      at(-1n, 500_000_000),
      at(-62_135_596_800n),
      at(253_402_300_800n),
      at(-8_000_000_000_000n),
    ])
      expect(formatTimestamp(ts)).toBe(asDateWrites(ts));
    expect(() => formatTimestamp(at(9_000_000_000_000_000n))).toThrow(RangeError);
  });
});
