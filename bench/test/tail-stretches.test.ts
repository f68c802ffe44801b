import { describe, expect, it } from "vitest";
import { STRETCH_GAP_MS, tailStretches } from "../support/tail-stretches.js";

describe("tailStretches", () => {
  it("when the slow requests were scheduled close together, then they count as one stretch", () => {
    const samples: Array<[number, number]> = [
      [0, 2],
      [10, 40],
      [20, 45],
      [20 + STRETCH_GAP_MS, 41],
      [500, 3],
    ];
    expect(tailStretches(samples, 40)).toEqual({
      stretches: 1,
      longestMs: 20 + STRETCH_GAP_MS - 10,
    });
  });

  it("when more than the gap separates slow requests, then each starts a new stretch, in any order given", () => {
    const samples: Array<[number, number]> = [
      [900, 30],
      [0, 31],
      [400, 1],
      [300, 35],
      [301 + STRETCH_GAP_MS, 30],
    ];
    expect(tailStretches(samples, 30)).toEqual({ stretches: 4, longestMs: 0 });
  });

  it("when no request reaches the p99 (no samples), then there are no stretches", () => {
    expect(tailStretches([], Number.NaN)).toEqual({ stretches: 0, longestMs: 0 });
    expect(tailStretches([[0, 1]], 5)).toEqual({ stretches: 0, longestMs: 0 });
  });
});
