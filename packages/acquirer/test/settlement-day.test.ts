import { describe, expect, it } from "vitest";
import { settledAfterLocalMidnight } from "../src/index.js";

describe("settlement after local midnight (Africa/Tunis, UTC+1)", () => {
  it("when it is still the same day in Tunis, then the payment is not settled", () => {
    expect(
      settledAfterLocalMidnight(new Date("2026-03-10T08:00:00Z"), new Date("2026-03-10T22:30:00Z")),
    ).toBe(false);
  });

  it("when Tunis has passed midnight, then the payment is settled even if UTC has not", () => {
    expect(
      settledAfterLocalMidnight(new Date("2026-03-10T08:00:00Z"), new Date("2026-03-10T23:30:00Z")),
    ).toBe(true);
  });

  it("when another time zone is given, then its midnight counts", () => {
    expect(
      settledAfterLocalMidnight(new Date("2026-03-10T08:00:00Z"), new Date("2026-03-10T23:30:00Z"), "UTC"),
    ).toBe(false);
  });
});
