import { describe, expect, it } from "vitest";
import { measureSideBySide } from "../support/growth-slices.js";

/** Spins for `ms`: a request that costs this process CPU. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("measureSideBySide", () => {
  it("when two stacks are measured, then their slices take turns, each keeps its median slice and its own failures, and CPU is read over its own slices only", async () => {
    // The reference's slices answer in 1 ms, 12 ms and 4 ms (its median: the 4 ms slice), and one
    // request in five fails; the grown stack's answer in 2 ms of busy CPU and never fail.
    const referenceDelays = [1, 12, 4];
    let referenceSlice = 0;
    let referenceCalls = 0;
    const order: string[] = [];
    const failures = { reference: 0, grown: 0 };
    const measure = await measureSideBySide({
      contenders: {
        reference: {
          send: async () => {
            referenceCalls += 1;
            if (referenceCalls % 5 === 0) throw new Error("refused");
            const delay = referenceDelays[referenceSlice]!;
            await new Promise((resolve) => setTimeout(resolve, delay));
            return delay;
          },
          // No process: its gateway's share must come out as nothing.
          gateway: [],
        },
        grown: {
          send: async () => {
            spin(2);
            return 2;
          },
          // This process stands in for the grown stack's gateway: it spends CPU in its slices.
          gateway: [{ name: "this process", pid: process.pid }],
        },
      },
      concurrency: 1,
      seconds: 0.3,
      slices: 3,
      // And for the database servers, which both stacks share.
      database: [{ name: "this process", pid: process.pid }],
      onSlice: (slice, side) => {
        order.push(side);
        failures[side] += slice.errors;
        if (side === "reference") referenceSlice += 1;
      },
    });
    expect(order).toEqual(["reference", "grown", "grown", "reference", "reference", "grown"]);
    expect(measure.reference.sliceRates).toHaveLength(3);
    // The 1 ms slice ran fastest, the 12 ms one slowest, in the order they ran.
    const [fast, slow, middle] = measure.reference.sliceRates as [number, number, number];
    expect(fast).toBeGreaterThan(middle);
    expect(middle).toBeGreaterThan(slow);
    expect(measure.reference.median.p50).toBe(4);
    expect(measure.grown.median.p50).toBe(2);
    expect(measure.reference.errors).toBe(failures.reference);
    expect(measure.reference.errors).toBeGreaterThan(0);
    expect(measure.grown.errors).toBe(0);
    expect(measure.reference.gatewayCpuUs).toBe(0);
    expect(measure.grown.gatewayCpuUs).toBeGreaterThan(0);
    // A grown request spins 2 ms; a reference request mostly sleeps: the shared servers' CPU is
    // charged to the stack whose slice was running.
    expect(measure.grown.databaseCpuUs).toBeGreaterThan(1000);
    expect(measure.reference.databaseCpuUs).toBeLessThan(measure.grown.databaseCpuUs / 2);
  });
});
