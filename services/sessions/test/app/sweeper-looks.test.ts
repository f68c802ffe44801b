import { ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { InMemorySweepLocks } from "../../src/adapters/memory/in-memory-sweep-locks.js";
import type { SessionRepository } from "../../src/app/ports.js";
import { createSessionSweeper } from "../../src/app/session-sweeper.js";
import { offlinePaymentDeps } from "../support/payment-fakes.js";

describe("the sweeper's looks for expiries", () => {
  it("when it looks again within a minute, then only expiries since shortly before its last look count; every minute it catches up on the last hour; every hour it looks at all", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const memory = createMemorySessionRepository();
    const windows: Array<string | undefined> = [];
    const repo: SessionRepository = Object.assign(Object.create(memory), {
      findDue: (now: Date, limit: number, since?: Date) => {
        windows.push(since?.toISOString());
        return memory.findDue(now, limit, since);
      },
    });
    const sweeper = createSessionSweeper({
      deps: offlinePaymentDeps(repo, clock),
      locks: new InMemorySweepLocks(),
    });
    await sweeper.runOnce();
    clock.advance(1_000);
    await sweeper.runOnce();
    clock.advance(5_000);
    await sweeper.runOnce();
    clock.advance(60_000);
    await sweeper.runOnce();
    clock.advance(1_000);
    await sweeper.runOnce();
    clock.advance(3_600_000 - 67_000);
    await sweeper.runOnce();
    clock.advance(-5_000);
    await sweeper.runOnce();
    expect(windows).toEqual([
      undefined,
      "2026-01-01T11:59:00.000Z",
      "2026-01-01T11:59:01.000Z",
      "2026-01-01T11:01:06.000Z",
      "2026-01-01T12:00:06.000Z",
      undefined,
      undefined,
    ]);
  });
});
