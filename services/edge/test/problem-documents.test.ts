import { errorCatalog, GatewayError } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

const SESSIONS = "/api/v1/gateway/sessions/";
const json = { "content-type": "application/json" };

describe("problem documents", () => {
  let t: TestEdge;
  let auth: { authorization: string };

  beforeEach(async () => {
    t = createTestEdge({ maxBodyBytes: 4096 });
    auth = bearer((await t.accounts.issueKey()).secret);
  });

  it("when the body is malformed JSON, then 400 bad-request", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, ...json },
      payload: '{"amount": "1.000",',
    });
    const doc = expectProblem(res, 400, "bad-request", "Bad Request");
    expect(doc.detail).toBe("The request body is not valid JSON.");
    expect(doc.instance).toBe(SESSIONS);
  });

  it.each([["[]"], ['"text"'], ["42"], ["null"], ["true"]])(
    "when the body is %s, not an object, then 400 bad-request",
    async (payload) => {
      const res = await t.app.inject({
        method: "POST",
        url: SESSIONS,
        headers: { ...auth, ...json },
        payload,
      });
      expect(expectProblem(res, 400, "bad-request", "Bad Request").detail).toBe(
        "The request body must be a JSON object.",
      );
      expect(t.sessions.createRequests).toHaveLength(0);
    },
  );

  it("when a create has no body at all, then 400 bad-request", async () => {
    const res = await t.app.inject({ method: "POST", url: SESSIONS, headers: { ...auth } });
    expect(expectProblem(res, 400, "bad-request", "Bad Request").detail).toBe(
      "The request body must be a JSON object.",
    );
  });

  it.each([["text/plain"], ["application/x-www-form-urlencoded"], ["application/xml"]])(
    "when a body is sent as %s, then 415 unsupported-media-type",
    async (contentType) => {
      const res = await t.app.inject({
        method: "POST",
        url: SESSIONS,
        headers: { ...auth, "content-type": contentType },
        payload: "a=1",
      });
      expectProblem(res, 415, "unsupported-media-type", "Unsupported Media Type");
    },
  );

  it("when a body has no content type, then 415 unsupported-media-type", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth },
      payload: Buffer.from('{"a":1}'),
    });
    expectProblem(res, 415, "unsupported-media-type", "Unsupported Media Type");
  });

  it("when the content type carries a charset, then the JSON body is accepted", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, "content-type": "application/json; charset=utf-8" },
      payload: '{"merchant_reference":"r-charset","amount":"1.000"}',
    });
    expect(res.statusCode).toBe(201);
  });

  it("when the body is larger than maxBodyBytes, then 413 payload-too-large", async () => {
    const payload = JSON.stringify({
      merchant_reference: "big",
      amount: "1.000",
      description: "x".repeat(5000),
    });
    const res = await t.app.inject({ method: "POST", url: SESSIONS, headers: { ...auth, ...json }, payload });
    expect(expectProblem(res, 413, "payload-too-large", "Payload Too Large").detail).toContain("4096");
  });

  it("when the route is unknown, then 404 not-found", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/nothing/here/?x=1" });
    expect(expectProblem(res, 404, "not-found", "Not Found").instance).toBe("/api/v1/nothing/here/");
  });

  it.each([
    ["/api/v1/gateway/sessions"],
    ["/api/v1/gateway/sessions/list"],
    ["/api/v1/gateway/sessions/ps_1"],
    ["/api/v1/gateway/sessions/ps_1/cancel"],
  ])("when %s lacks its trailing slash, then 404 not-found (paths are exact, no redirect)", async (url) => {
    const method = url.endsWith("cancel") || url.endsWith("sessions") ? "POST" : "GET";
    const res = await t.app.inject({
      method,
      url,
      headers: { ...auth, ...json },
      payload: method === "POST" ? "{}" : undefined,
    });
    expectProblem(res, 404, "not-found", "Not Found");
    expect(res.headers.location).toBeUndefined();
  });

  it("when a known path is called with another method, then 405 method-not-allowed with Allow", async () => {
    const del = await t.app.inject({ method: "DELETE", url: SESSIONS });
    expectProblem(del, 405, "method-not-allowed", "Method Not Allowed");
    expect(del.headers.allow).toBe("POST");

    const put = await t.app.inject({ method: "PUT", url: "/api/v1/gateway/sessions/ps_123/" });
    expectProblem(put, 405, "method-not-allowed", "Method Not Allowed");
    expect(put.headers.allow).toBe("GET, HEAD");

    const getCancel = await t.app.inject({ method: "GET", url: "/api/v1/gateway/sessions/ps_123/cancel/" });
    expect(getCancel.statusCode).toBe(405);
    expect(getCancel.headers.allow).toBe("POST");
  });

  it("when the URL is not decodable, then 400 bad-request", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/gateway/sessions/%E0%A4%A/" });
    expectProblem(res, 400, "bad-request", "Bad Request");
  });

  it("when the session does not exist, then 404 not-found from the service's reason", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/gateway/sessions/ps_missing/",
      headers: auth,
    });
    const doc = expectProblem(res, 404, "not-found", "Not Found");
    expect(doc.instance).toBe("/api/v1/gateway/sessions/ps_missing/");
    expect(doc.detail).toContain("ps_missing");
  });

  it("when a repeat has a different amount, then 409 conflict with existing_session_id", async () => {
    const first = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, ...json },
      payload: { merchant_reference: "dup", amount: "5.000" },
    });
    const res = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, ...json },
      payload: { merchant_reference: "dup", amount: "6.000" },
    });
    const doc = expectProblem(res, 409, "conflict", "Conflict");
    expect(doc.existing_session_id).toBe(first.json().id);
  });

  it("when a dependency is unavailable, then 503 service-unavailable with Retry-After: 1", async () => {
    t.outage.sessions = true;
    const res = await t.app.inject({ method: "GET", url: "/api/v1/gateway/sessions/ps_x/", headers: auth });
    const doc = expectProblem(res, 503, "service-unavailable", "Service Unavailable");
    expect(res.headers["retry-after"]).toBe("1");
    expect(JSON.stringify(doc)).not.toContain("10.0.0.7");
  });

  it("when the rate limit is exceeded, then 429 with the service's Retry-After", async () => {
    t.sessions.failWith = new GatewayError("RATE_LIMIT_EXCEEDED", "Too many requests.", {
      metadata: { retry_after_seconds: "3" },
    });
    const res = await t.app.inject({ method: "GET", url: "/api/v1/gateway/sessions/list/", headers: auth });
    expectProblem(res, 429, "rate-limit-exceeded", "Rate Limit Exceeded");
    expect(res.headers["retry-after"]).toBe("3");
  });

  it("when a service fails unexpectedly, then 500 internal-error with a generic detail", async () => {
    t.sessions.failWith = new Error(
      "E11000 duplicate key in gateway_sessions.sessions secret-internal-detail",
    );
    const res = await t.app.inject({ method: "GET", url: "/api/v1/gateway/sessions/ps_x/", headers: auth });
    const doc = expectProblem(res, 500, "internal-error", "Internal Server Error");
    expect(res.body).not.toContain("secret-internal-detail");
    expect(doc.detail).toMatch(/unexpected error/);
  });

  it("when the edge itself fails, then 500 internal-error and the cause is logged, not shown", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, ...json },
      payload: { merchant_reference: "c", amount: "1.000" },
    });
    // The service answers with metadata that is not JSON (a corrupted store).
    t.sessions.rewriteAnswer = (_method, answer) => {
      (answer.session as { metadataJson: string }).metadataJson = "{corrupt";
    };
    const res = await t.app.inject({ method: "GET", url: `${SESSIONS}${created.json().id}/`, headers: auth });
    expectProblem(res, 500, "internal-error", "Internal Server Error");
    expect(res.body).not.toContain("metadata");
    const logged = t.logLines.filter((line) => line.includes("stored session metadata is not valid JSON"));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!).level).toBe(50);
  });

  it("when a session is terminal, then cancel answers 409 session-terminal", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, ...json },
      payload: { merchant_reference: "t", amount: "1.000" },
    });
    await t.sessions.pay(created.json().id);
    const res = await t.app.inject({
      method: "POST",
      url: `${SESSIONS}${created.json().id}/cancel/`,
      headers: auth,
    });
    expectProblem(res, 409, "session-terminal", "Session Terminal");
  });

  it("when validation fails, then the title is exactly 'Validation Error' with an errors array", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: SESSIONS,
      headers: { ...auth, ...json },
      payload: {},
    });
    const doc = expectProblem(res, 422, "validation-error", "Validation Error");
    expect(Array.isArray(doc.errors)).toBe(true);
    for (const e of doc.errors as Array<Record<string, unknown>>) {
      expect(Object.keys(e).sort()).toEqual(["code", "field", "message"]);
      for (const v of Object.values(e)) expect(typeof v).toBe("string");
    }
  });

  it("every answer carries a Request-Id header", async () => {
    const res = await t.app.inject({ method: "GET", url: "/nowhere" });
    expect(res.headers["request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("problem type pages", () => {
  const t = createTestEdge();

  it.each(Object.values(errorCatalog).map((e) => [e.problemType, e]))(
    "GET /errors/%s serves a human-readable page",
    async (type, entry) => {
      const res = await t.app.inject({ method: "GET", url: `/errors/${type}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.body).toContain(`<h1>${entry.title}</h1>`);
      expect(res.body).toContain(String(entry.httpStatus));
    },
  );

  it("when the type is unknown, then 404 not-found", async () => {
    expectProblem(
      await t.app.inject({ method: "GET", url: "/errors/no-such-type" }),
      404,
      "not-found",
      "Not Found",
    );
  });
});

describe("health", () => {
  it("GET /healthz answers 200 without any dependency", async () => {
    const t = createTestEdge({
      readiness: [{ name: "accounts", check: () => Promise.reject(new Error("down")) }],
    });
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  // Issue 15 item 6: metrics were served without auth on the public port; they moved to the
  // management listener (MANAGEMENT_PORT), so here /metrics is an unknown route.
  it("GET /metrics on the public port is a 404 problem", async () => {
    const res = await createTestEdge().app.inject({ method: "GET", url: "/metrics" });
    expectProblem(res, 404, "not-found", "Not Found");
  });

  it("GET /readyz answers 200 when every dependency is ready and 503 naming the failing ones otherwise", async () => {
    let accountsUp = true;
    const t = createTestEdge({
      readiness: [
        {
          name: "accounts",
          check: async () => {
            if (!accountsUp) throw new Error("connection refused");
          },
        },
        { name: "sessions", check: async () => {} },
      ],
    });
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    accountsUp = false;
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    const doc = expectProblem(res, 503, "service-unavailable", "Service Unavailable");
    expect(doc.detail).toBe("Not ready: accounts unavailable.");
    expect(res.body).not.toContain("connection refused");
  });
});
