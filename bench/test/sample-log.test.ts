import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { SampleLog } from "../support/sample-log.js";

/** V8's own collector, exposed for this file: heap sizes are compared after a full collection. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

function heapUsedAfterCollection(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe("SampleLog", () => {
  it("when samples are added, then it gives them back as pairs in the order added", () => {
    const log = new SampleLog(3);
    log.add(0.5, 2.25);
    log.add(0.25, 7.125);
    expect(log.pairs()).toEqual([
      [0.5, 2.25],
      [0.25, 7.125],
    ]);
  });

  it("when a million samples are held, then the garbage-collected heap holds almost none of them", () => {
    // The open loop's reason for this log (bench/support/sample-log.ts): a million [start,
    // latency] pairs as arrays take about 71 MB of heap for the generator's collector to mark.
    const before = heapUsedAfterCollection();
    const log = new SampleLog(1_000_000);
    for (let i = 0; i < log.capacity; i++) log.add(i / 6 + 0.1, (i % 997) / 7 + 0.3);
    const grown = heapUsedAfterCollection() - before;
    expect(grown).toBeLessThan(4 * 1024 * 1024);
    expect(log.pairs()).toHaveLength(1_000_000);
  });

  it("when full, then it refuses another sample instead of losing it", () => {
    const log = new SampleLog(1);
    log.add(1, 1);
    expect(() => log.add(2, 2)).toThrow(RangeError);
    expect(log.pairs()).toEqual([[1, 1]]);
  });

  it("when given a capacity that is not a whole number of places, then it is refused", () => {
    expect(() => new SampleLog(-1)).toThrow(RangeError);
    expect(() => new SampleLog(1.5)).toThrow(RangeError);
    expect(() => new SampleLog(Number.NaN)).toThrow(RangeError);
  });
});
