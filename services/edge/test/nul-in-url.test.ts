import { beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

// FerretDB on PostgreSQL fails any query holding a NUL instead of finding nothing, so a NUL in
// the URL must be answered by the edge itself. The sessions service is made to fail: an answer
// that reached it would be an error, not the 404 or 422 expected here.
describe("a NUL in the URL", () => {
  let t: TestEdge;
  let auth: { authorization: string };

  beforeEach(async () => {
    t = createTestEdge();
    auth = bearer((await t.accounts.issueKey()).secret);
    t.sessions.failWith = new Error("the sessions service must not be asked");
  });

  it.each([
    ["GET", "/api/v1/gateway/sessions/%00/"],
    ["GET", "/api/v1/gateway/sessions/ps_%00abc/"],
    ["POST", "/api/v1/gateway/sessions/%00/cancel/"],
    ["POST", "/api/v1/gateway/sessions/%00/refund/"],
    ["GET", "/api/v1/gateway/sessions/%00/webhooks/"],
  ])("when %s %s names a resource with a NUL, then 404 not-found", async (method, url) => {
    const res = await t.app.inject({
      method: method as "GET" | "POST",
      url,
      headers: { ...auth, "content-type": "application/json" },
      payload: method === "POST" ? "{}" : undefined,
    });
    expectProblem(res, 404, "not-found", "Not Found");
  });

  it("when an API filter holds a NUL, then 422 names that parameter", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/list/?merchant_reference=a%00b&status=PENDING",
      headers: auth,
    });
    const doc = expectProblem(res, 422, "validation-error", "Validation Error");
    expect(doc.errors).toEqual([
      {
        field: "merchant_reference",
        code: "invalid",
        message: "merchant_reference must not contain control characters.",
      },
    ]);
  });

  it("when a checkout link holds a NUL, then the buyer gets the checkout's not-found page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/checkout/%00abc" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
  });
});
