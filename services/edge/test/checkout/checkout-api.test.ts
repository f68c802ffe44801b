import { beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestEdge, type TestEdge } from "../fakes/edge-test-harness.js";
import { expectProblem } from "../problem-assertions.js";

const SESSIONS = "/api/v1/gateway/sessions/";

describe("POST /api/v1/gateway/sessions/{id}/checkout/", () => {
  let t: TestEdge;
  let auth: Record<string, string>;

  beforeEach(async () => {
    t = createTestEdge();
    auth = bearer((await t.accounts.issueKey()).secret);
  });

  async function createSession(): Promise<{ id: string; checkout_url: string }> {
    const res = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, "content-type": "application/json" },
      payload: JSON.stringify({ merchant_reference: `ref-${Math.random()}`, amount: "10.000" }),
    });
    return res.json();
  }

  const checkout = (id: string, payload?: string, headers: Record<string, string> = auth) =>
    t.app.inject({
      method: "POST",
      url: `${SESSIONS}${id}/checkout/`,
      headers: payload === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(payload === undefined ? {} : { payload }),
    });

  it("when the session is payable, then 201 with a new link and its expiry; the old link keeps working", async () => {
    const session = await createSession();
    const res = await checkout(session.id);
    expect(res.statusCode).toBe(201);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = res.json();
    expect(Object.keys(body)).toEqual(["checkout_url", "expires_at"]);
    expect(body.checkout_url).toMatch(/^http:\/\/localhost:8080\/checkout\/[A-Za-z0-9]+$/);
    expect(body.checkout_url).not.toBe(session.checkout_url);
    expect(body.expires_at).toBe("2026-01-15T10:30:00.000Z");
    const page = await t.app.inject({ method: "GET", url: new URL(body.checkout_url).pathname });
    expect(page.statusCode).toBe(200);
    const old = await t.app.inject({ method: "GET", url: new URL(session.checkout_url).pathname });
    expect(old.statusCode).toBe(200);
  });

  it("accepts an empty JSON object as the body, and refuses members", async () => {
    const session = await createSession();
    expect((await checkout(session.id, "{}")).statusCode).toBe(201);
    const doc = expectProblem(
      await checkout(session.id, '{"lifetime":"1h"}'),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([{ field: "lifetime", code: "invalid", message: "Unknown field." }]);
  });

  it("when too many links are active, then 422 checkout-limit-exceeded", async () => {
    const session = await createSession();
    expect((await checkout(session.id)).statusCode).toBe(201);
    expect((await checkout(session.id)).statusCode).toBe(201);
    expectProblem(await checkout(session.id), 422, "checkout-limit-exceeded", "Checkout Limit Exceeded");
  });

  it("when the session is terminal, then 409 session-terminal", async () => {
    const session = await createSession();
    await t.sessions.expireSession(session.id);
    expectProblem(await checkout(session.id), 409, "session-terminal", "Session Terminal");
  });

  it("when the session does not exist or belongs to another account, then 404", async () => {
    expectProblem(await checkout("ps_doesnotexist0000000000"), 404, "not-found", "Not Found");
    const session = await createSession();
    const other = bearer((await t.accounts.issueKey()).secret);
    expectProblem(await checkout(session.id, undefined, other), 404, "not-found", "Not Found");
  });

  it("needs an API key like every /api route", async () => {
    const session = await createSession();
    expectProblem(await checkout(session.id, undefined, {}), 401, "unauthorized", "Unauthorized");
  });
});
