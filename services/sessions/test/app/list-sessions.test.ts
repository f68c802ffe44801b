import { GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { createSession } from "../../src/app/create-session.js";
import { listSessions } from "../../src/app/list-sessions.js";
import { ACTIVE_TERMINALS, createInput, fakeRates, LIFETIMES, newScope } from "../support/fixtures.js";

async function violations(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError && err.reason === "VALIDATION_ERROR")
      return err.violations.map((v) => `${v.field}:${v.code}`);
    throw err;
  }
  throw new Error("expected a validation error");
}

describe("listSessions", () => {
  async function seeded(count: number) {
    const repo = createMemorySessionRepository();
    const clock = new ManualClock();
    const scope = newScope();
    for (let i = 0; i < count; i++) {
      await createSession(
        { repo, rates: fakeRates({}), terminals: ACTIVE_TERMINALS, clock, lifetimes: LIFETIMES },
        createInput(scope, { merchantReference: `ref-${i}` }),
      );
      clock.advance(1000);
    }
    return { repo, scope };
  }

  it("when no limit is given, then 20 sessions come back with a cursor to the rest", async () => {
    const { repo, scope } = await seeded(25);
    const page = await listSessions(repo, scope, { filter: {} });
    expect(page.sessions).toHaveLength(20);
    expect(page.sessions[0]!.merchantReference).toBe("ref-24");
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe(page.sessions[19]!.id);
    const rest = await listSessions(repo, scope, { filter: {}, startingAfter: page.nextCursor! });
    expect(rest.sessions.map((s) => s.merchantReference)).toEqual([
      "ref-4",
      "ref-3",
      "ref-2",
      "ref-1",
      "ref-0",
    ]);
    expect(rest.hasMore).toBe(false);
    expect(rest.nextCursor).toBeUndefined();
  });

  it.each([-1, 101, 2.5])("when the limit is %s, then limit is invalid", async (limit) => {
    const { repo, scope } = await seeded(1);
    expect(await violations(listSessions(repo, scope, { filter: {}, limit }))).toEqual(["limit:invalid"]);
  });

  it("when the limit is 1 or 100, then it is honoured", async () => {
    const { repo, scope } = await seeded(3);
    expect((await listSessions(repo, scope, { filter: {}, limit: 1 })).sessions).toHaveLength(1);
    expect((await listSessions(repo, scope, { filter: {}, limit: 100 })).sessions).toHaveLength(3);
  });

  it("when the cursor is not a session of this account, then starting_after is invalid", async () => {
    const { repo, scope } = await seeded(2);
    expect(await violations(listSessions(repo, scope, { filter: {}, startingAfter: "ps_unknown" }))).toEqual([
      "starting_after:invalid",
    ]);
  });
});
