import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../src/logger.js";
import { createPollingLoop } from "../src/polling-loop.js";

const logger = createLogger({ service: "polling-loop-test", level: "silent" });

describe("polling loop", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function looksWithin(
    ms: number,
    o: { maxIdleIntervalMs?: number; idle: () => boolean; during?: (loop: { wake(): void }) => void },
  ) {
    vi.useFakeTimers();
    let looks = 0;
    const loop = createPollingLoop({
      pass: async () => {
        looks++;
        return { more: false, idle: o.idle() };
      },
      intervalMs: 100,
      ...(o.maxIdleIntervalMs ? { maxIdleIntervalMs: o.maxIdleIntervalMs } : {}),
      logger,
      failureMessage: "look failed",
    });
    loop.start();
    o.during?.(loop);
    await vi.advanceTimersByTimeAsync(ms);
    const stopped = loop.stop();
    await vi.advanceTimersByTimeAsync(1);
    await stopped;
    return looks;
  }

  it("when looks find nothing, then the pauses double up to the idle maximum", async () => {
    // Looks at 0, 100, 300, 700, 1100, 1500, 1900 (pauses 100, 200, 400, then 400 each).
    expect(await looksWithin(2_000, { maxIdleIntervalMs: 400, idle: () => true })).toBe(7);
  });

  it("when there is no idle maximum, or looks find work, then the pause stays the interval", async () => {
    expect(await looksWithin(2_000, { idle: () => true })).toBe(21);
    expect(await looksWithin(2_000, { maxIdleIntervalMs: 400, idle: () => false })).toBe(21);
  });

  it("when the loop is woken, then the next look is at once and the pauses start again from the interval", async () => {
    const looks = await looksWithin(2_000, {
      maxIdleIntervalMs: 1_600,
      idle: () => true,
      during: (loop) => {
        // Idle from 0: looks at 0, 100, 300, 700, 1500; a wake at 1000 adds a look then, and the
        // next pauses are 100, 200, 400 again: looks at 1000, 1100, 1300, 1700.
        setTimeout(() => loop.wake(), 1_000);
      },
    });
    expect(looks).toBe(8);
  });
});
