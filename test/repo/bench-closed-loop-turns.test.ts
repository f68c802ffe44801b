import { describe, expect, it } from "vitest";
import { closedLoopsInTurns } from "../../bench/support/http-load.js";

/** A target whose every answer takes `ms`, logging which target was sent to, in order. */
function target(name: string, ms: number, log: string[]) {
  let sent = 0;
  const send = async () => {
    sent++;
    if (log.at(-1) !== name) log.push(name);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ms;
  };
  return { send, sent: () => sent };
}

describe("the benchmarks' closed loops in turns", () => {
  it("when two targets are measured in 4 turns, then their slices alternate, first target first, and each counts the requests sent to it", async () => {
    const log: string[] = [];
    const gateway = target("gateway", 2, log);
    const floor = target("floor", 2, log);
    const [g, f] = await closedLoopsInTurns([gateway.send, floor.send], 2, 0.4, 4);
    expect(log).toEqual(["gateway", "floor", "gateway", "floor", "gateway", "floor", "gateway", "floor"]);
    expect(g!.requests).toBe(gateway.sent());
    expect(f!.requests).toBe(floor.sent());
  });

  it("when one target answers slower, then each result counts only its own samples, over its own slices' time", async () => {
    const [fast, slow] = await closedLoopsInTurns(
      [target("fast", 1, []).send, target("slow", 3, []).send],
      1,
      0.6,
      3,
    );
    // The samples are each target's own answers (1 and 3 ms), never the other's.
    expect([fast!.p50, fast!.p99]).toEqual([1, 1]);
    expect([slow!.p50, slow!.p99]).toEqual([3, 3]);
    // The rate is over the target's own 0.6 s (its three 0.2-s slices, each ending when its last
    // answer came), not over the 1.2 s both took: over both it would be half this.
    for (const r of [fast!, slow!]) {
      expect(r.perSecond).toBeGreaterThan((r.requests / 0.6) * 0.8);
      expect(r.perSecond).toBeLessThanOrEqual(r.requests / 0.6);
    }
  });
});
