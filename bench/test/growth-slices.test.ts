import { describe, expect, it } from "vitest";
import { measureGrowthSlices } from "../support/growth-slices.js";

describe("measureGrowthSlices", () => {
  it("when slices run at different rates, then the step keeps the median slice, counts every failure, and each group's CPU apart", async () => {
    // The slices' requests take 1 ms, 12 ms and 4 ms: the median rate is the 4 ms slice's.
    const delays = [1, 12, 4];
    let slice = 0;
    let calls = 0;
    const seen: number[] = [];
    const measure = await measureGrowthSlices({
      send: async () => {
        calls += 1;
        if (calls % 5 === 0) throw new Error("refused");
        await new Promise((resolve) => setTimeout(resolve, delays[slice]!));
        return delays[slice]!;
      },
      concurrency: 1,
      seconds: 0.3,
      slices: 3,
      // This process stands in for the database servers: it spends CPU while the slices run.
      // The gateway is given no process, so its share must come out as nothing.
      database: [{ name: "this process", pid: process.pid }],
      gateway: [],
      onSlice: (result) => {
        seen.push(result.errors);
        slice += 1;
      },
    });
    expect(seen).toHaveLength(3);
    expect(measure.median.p50).toBe(4);
    expect(measure.errors).toBe(seen.reduce((a, b) => a + b, 0));
    expect(measure.errors).toBeGreaterThan(0);
    expect(measure.databaseCpuUs).toBeGreaterThan(0);
    expect(measure.gatewayCpuUs).toBe(0);
  });
});
