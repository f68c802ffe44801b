import { describe, expect, it } from "vitest";
import { openLoop } from "../../bench/support/http-load.js";

/** Blocks this process's event loop for `ms`, as a GC pause or a paused machine would. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe("the benchmarks' open loop", () => {
  it("when the load generator itself stalls, then its longest start delay shows the stall, and the latencies of that moment include it", async () => {
    let sent = 0;
    const answeredAtOnce = async () => {
      if (++sent === 50) setTimeout(() => stall(120), 0);
      return 0.1;
    };
    const result = await openLoop(answeredAtOnce, 200, 1);
    expect(result.requests).toBe(200);
    expect(result.maxStartDelayMs).toBeGreaterThanOrEqual(100);
    expect(result.p99).toBeGreaterThanOrEqual(50);
  });
});
