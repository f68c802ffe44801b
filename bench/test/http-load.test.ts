import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { closedLoop, openLoop } from "../support/http-load.js";

/** A request answered after 2 ms, as a target slower than the generator would answer it. */
const slowAnswer = async () => {
  await sleep(2);
  return 2;
};

/** The share of `run`'s time this thread's event loop was busy rather than asleep waiting. */
async function busyShareDuring(run: () => Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await run();
  return performance.eventLoopUtilization(before).utilization;
}

describe("closedLoop", () => {
  it("when the generator polls, then its event loop stays awake while the clients wait, and sleeps again after", async () => {
    const polling = await busyShareDuring(() => closedLoop(slowAnswer, 2, 0.3, { generatorPolls: true }));
    expect(polling).toBeGreaterThan(0.9);
    const after = await busyShareDuring(() => sleep(200));
    expect(after).toBeLessThan(0.5);
  });

  it("when the generator does not poll, then its event loop sleeps while the clients wait", async () => {
    let result: Awaited<ReturnType<typeof closedLoop>> | undefined;
    const sleeping = await busyShareDuring(async () => {
      result = await closedLoop(slowAnswer, 2, 0.3);
    });
    expect(sleeping).toBeLessThan(0.5);
    expect(result?.requests).toBeGreaterThan(10);
  });

  it("when the generator polls, then every answer is still counted", async () => {
    const result = await closedLoop(slowAnswer, 2, 0.3, { generatorPolls: true });
    expect(result.errors).toBe(0);
    expect(result.requests).toBeGreaterThan(10);
    expect(result.p50).toBe(2);
  });
});

describe("openLoop", () => {
  it("when the generator polls, then its event loop stays awake between scheduled requests, and sleeps again after", async () => {
    let result: Awaited<ReturnType<typeof openLoop>> | undefined;
    const polling = await busyShareDuring(async () => {
      result = await openLoop(slowAnswer, 100, 0.3, { generatorPolls: true });
    });
    expect(polling).toBeGreaterThan(0.9);
    expect(result?.requests).toBe(30);
    expect(result?.errors).toBe(0);
    expect(await busyShareDuring(() => sleep(200))).toBeLessThan(0.5);
  });

  it("when the generator does not poll, then its event loop sleeps between scheduled requests", async () => {
    const sleeping = await busyShareDuring(() => openLoop(slowAnswer, 100, 0.3));
    expect(sleeping).toBeLessThan(0.5);
  });

  it("when the loop is shorter than a slice, then its one slice's p99 is the loop's", async () => {
    const result = await openLoop(slowAnswer, 100, 0.3);
    expect(result.sliceP99s).toEqual([result.p99]);
    expect(result.p99).toBeGreaterThanOrEqual(2);
  });
});
