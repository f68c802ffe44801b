import { describe, expect, it, vi } from "vitest";
import { bearer, createTestEdge } from "./fakes/edge-test-harness.js";

const SESSIONS = "/api/v1/gateway/sessions/";

/** The edge at `warn`, as operators who keep only problems run it, with its logger's children counted. */
async function quietEdge() {
  const t = createTestEdge();
  await t.app.ready();
  t.app.log.level = "warn";
  const makeChild = vi.spyOn(t.app.log, "child");
  const headers = { ...bearer((await t.accounts.issueKey()).secret), "content-type": "application/json" };
  return { t, makeChild, headers };
}

describe("a request's logger", () => {
  it("when requests write no line at the logger's level, then no child logger is made for them", async () => {
    const { t, makeChild, headers } = await quietEdge();
    const created = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers,
      payload: JSON.stringify({ merchant_reference: "log-1", amount: "10.00", currency: "EUR" }),
    });
    expect(created.statusCode).toBe(201);
    const missing = await t.app.inject({ method: "GET", url: `${SESSIONS}sess_missing000001/`, headers });
    expect(missing.statusCode).toBe(404);
    expect(makeChild).not.toHaveBeenCalled();
    expect(t.logLines).toEqual([]);
  });

  it("when a request writes a line, then the line carries that request's Request-Id, and only that request made a child", async () => {
    const { t, makeChild, headers } = await quietEdge();
    const session = `${SESSIONS}sess_missing000001/`;
    expect((await t.app.inject({ method: "GET", url: session, headers })).statusCode).toBe(404);
    t.outage.sessions = true;
    const failed = await t.app.inject({ method: "GET", url: session, headers });
    expect(failed.statusCode).toBe(503);
    expect(makeChild).toHaveBeenCalledTimes(1);
    const lines = t.logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: failed.headers["request-id"],
        msg: "a dependency is unavailable",
      }),
    ]);
  });
});
