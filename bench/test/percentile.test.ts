import { describe, expect, it } from "vitest";
import { percentile, sliceP99s } from "../support/percentile.js";

describe("percentile", () => {
  it("when asked for a quantile, then it is the sample at that nearest rank", () => {
    const sorted = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(100);
    expect(percentile(sorted, 0.99)).toBe(198);
    expect(percentile(sorted, 1)).toBe(200);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it("when there are no samples, then it is NaN", () => {
    expect(percentile([], 0.99)).toBeNaN();
  });
});

describe("sliceP99s", () => {
  it("when one slice holds a stall, then only that slice's p99 shows it, in time order, given in any order", () => {
    // Three 1-s slices of 100 requests each, 1 ms apart; the second's last two take 150 ms.
    const samples: Array<[number, number]> = [];
    for (let i = 0; i < 300; i++) samples.push([i * 10, 2]);
    samples[198]![1] = 150;
    samples[199]![1] = 150;
    samples.reverse();
    expect(sliceP99s(samples, 1000)).toEqual([2, 150, 2]);
  });

  it("when a slice had no successful request, then it is left out", () => {
    const samples: Array<[number, number]> = [
      [100, 3],
      [2500, 4],
    ];
    expect(sliceP99s(samples, 1000)).toEqual([3, 4]);
    expect(sliceP99s([], 1000)).toEqual([]);
  });

  it("when the slice is not a positive length, then it refuses", () => {
    expect(() => sliceP99s([[0, 1]], 0)).toThrow(RangeError);
    expect(() => sliceP99s([[0, 1]], Number.NaN)).toThrow(RangeError);
  });
});
