import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

const admin = { ...bearer(ADMIN_TOKEN), "content-type": "application/json" };

describe("admin API", () => {
  let t: TestEdge;
  beforeEach(() => {
    t = createTestEdge();
  });

  const call = (
    method: "POST" | "PUT" | "DELETE" | "GET",
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin,
  ) =>
    t.app.inject({
      method,
      url,
      headers,
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });

  describe("guard", () => {
    it("when the token is missing, then 401 unauthorized with WWW-Authenticate", async () => {
      const res = await call(
        "POST",
        "/admin/v1/merchants",
        { name: "Shop" },
        { "content-type": "application/json" },
      );
      expectProblem(res, 401, "unauthorized", "Unauthorized");
      expect(res.headers["www-authenticate"]).toBe("Bearer");
      expect(t.accounts.merchants.size).toBe(0);
    });

    it("when the token is wrong, then 401 unauthorized", async () => {
      for (const token of ["wrong", `${ADMIN_TOKEN}x`, ADMIN_TOKEN.slice(0, -1)]) {
        const res = await call(
          "POST",
          "/admin/v1/merchants",
          { name: "Shop" },
          { ...bearer(token), "content-type": "application/json" },
        );
        expectProblem(res, 401, "unauthorized", "Unauthorized");
      }
      expect(t.accounts.merchants.size).toBe(0);
    });

    it("when an API key is used as the admin token, then 401", async () => {
      const { secret } = await t.accounts.issueKey();
      expectProblem(
        await call(
          "POST",
          "/admin/v1/merchants",
          { name: "Shop" },
          { ...bearer(secret), "content-type": "application/json" },
        ),
        401,
        "unauthorized",
        "Unauthorized",
      );
    });

    it("when no admin token is configured, then every admin route is 404 not-found", async () => {
      const disabled = createTestEdge({ adminToken: undefined });
      for (const [method, url] of [
        ["POST", "/admin/v1/merchants"],
        ["POST", "/admin/v1/merchants/mer_1/verification"],
        ["POST", "/admin/v1/merchants/mer_1/api-keys"],
        ["DELETE", "/admin/v1/api-keys/key_1"],
        ["PUT", "/admin/v1/merchants/mer_1/exchange-rates/EUR"],
      ] as const) {
        const res = await disabled.app.inject({ method, url, headers: admin, payload: "{}" });
        expectProblem(res, 404, "not-found", "Not Found");
      }
    });
  });

  describe("merchants", () => {
    it("creates a merchant (201) and verifies it (200)", async () => {
      const created = await call("POST", "/admin/v1/merchants", { name: "Dar Shop" });
      expect(created.statusCode).toBe(201);
      const merchant = created.json();
      expect(merchant).toEqual({
        id: expect.stringMatching(/^mer_/),
        name: "Dar Shop",
        verified: false,
        created_at: "2026-01-15T10:00:00.000Z",
      });

      const verified = await call("POST", `/admin/v1/merchants/${merchant.id}/verification`);
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({ ...merchant, verified: true });
    });

    it("when the name is missing, not a string, or extra fields are sent, then 422 with errors", async () => {
      expect(
        expectProblem(
          await call("POST", "/admin/v1/merchants", {}),
          422,
          "validation-error",
          "Validation Error",
        ).errors,
      ).toEqual([{ field: "name", code: "required", message: "This field is required." }]);
      expect(
        expectProblem(
          await call("POST", "/admin/v1/merchants", { name: 5, extra: true }),
          422,
          "validation-error",
          "Validation Error",
        ).errors,
      ).toEqual([
        { field: "name", code: "invalid", message: "Must be a string." },
        { field: "extra", code: "invalid", message: "Unknown field." },
      ]);
      // The service's own validation comes back the same way.
      expect(
        expectProblem(
          await call("POST", "/admin/v1/merchants", { name: "  " }),
          422,
          "validation-error",
          "Validation Error",
        ).errors,
      ).toEqual([{ field: "name", code: "required", message: expect.any(String) }]);
    });

    it("when the merchant does not exist, then 404", async () => {
      expectProblem(
        await call("POST", "/admin/v1/merchants/mer_nope/verification"),
        404,
        "not-found",
        "Not Found",
      );
    });
  });

  describe("API keys", () => {
    let merchantId: string;
    beforeEach(async () => {
      merchantId = (await call("POST", "/admin/v1/merchants", { name: "Shop" })).json().id as string;
    });

    it("creates a test key shown once, which then authenticates API calls", async () => {
      const res = await call("POST", `/admin/v1/merchants/${merchantId}/api-keys`, { mode: "test" });
      expect(res.statusCode).toBe(201);
      const key = res.json();
      expect(key).toEqual({
        id: expect.stringMatching(/^key_/),
        mode: "test",
        key: expect.stringMatching(/^sk_test_/),
        created_at: "2026-01-15T10:00:00.000Z",
        expires_at: null,
      });
      const api = await t.app.inject({
        method: "GET",
        url: "/api/v1/gateway/sessions/list/",
        headers: bearer(key.key),
      });
      expect(api.statusCode).toBe(200);
    });

    it("when a live key is asked for an unverified merchant, then 403 forbidden from accounts", async () => {
      expectProblem(
        await call("POST", `/admin/v1/merchants/${merchantId}/api-keys`, { mode: "live" }),
        403,
        "forbidden",
        "Forbidden",
      );
      await call("POST", `/admin/v1/merchants/${merchantId}/verification`);
      const live = await call("POST", `/admin/v1/merchants/${merchantId}/api-keys`, {
        mode: "live",
        expires_at: "2027-01-01T00:00:00+01:00",
      });
      expect(live.statusCode).toBe(201);
      expect(live.json()).toMatchObject({
        mode: "live",
        key: expect.stringMatching(/^sk_live_/),
        expires_at: "2026-12-31T23:00:00.000Z",
      });
    });

    it("when mode or expires_at are bad, then 422 with each field", async () => {
      const doc = expectProblem(
        await call("POST", `/admin/v1/merchants/${merchantId}/api-keys`, {
          mode: "prod",
          expires_at: "tomorrow",
        }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect((doc.errors as Array<{ field: string; code: string }>).map((e) => [e.field, e.code])).toEqual([
        ["mode", "invalid"],
        ["expires_at", "invalid"],
      ]);
      const missing = expectProblem(
        await call("POST", `/admin/v1/merchants/${merchantId}/api-keys`, {}),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(missing.errors).toEqual([
        { field: "mode", code: "required", message: "This field is required." },
      ]);
    });

    it("revokes a key (200 with revoked_at), after which it no longer authenticates", async () => {
      const key = (await call("POST", `/admin/v1/merchants/${merchantId}/api-keys`, { mode: "test" })).json();
      t.clock.advance(1000);
      const res = await call("DELETE", `/admin/v1/api-keys/${key.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: key.id,
        mode: "test",
        created_at: key.created_at,
        expires_at: null,
        revoked_at: "2026-01-15T10:00:01.000Z",
      });
      expect(res.body).not.toContain(key.key);
      const api = await t.app.inject({
        method: "GET",
        url: "/api/v1/gateway/sessions/list/",
        headers: bearer(key.key),
      });
      expectProblem(api, 401, "unauthorized", "Unauthorized");
    });

    it("when the key does not exist, then 404", async () => {
      expectProblem(await call("DELETE", "/admin/v1/api-keys/key_nope"), 404, "not-found", "Not Found");
    });
  });

  describe("exchange rates", () => {
    let merchantId: string;
    beforeEach(async () => {
      merchantId = (await call("POST", "/admin/v1/merchants", { name: "Shop" })).json().id as string;
    });

    it("sets a rate (200, normalised by accounts)", async () => {
      const res = await call("PUT", `/admin/v1/merchants/${merchantId}/exchange-rates/EUR`, { rate: "3.35" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ currency: "EUR", rate: "3.350000" });
    });

    it("when the rate is a JSON number, then 422 before accounts is called", async () => {
      const doc = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/exchange-rates/EUR`, { rate: 3.35 }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(doc.errors).toEqual([
        { field: "rate", code: "invalid", message: expect.stringContaining("not a JSON number") },
      ]);
    });

    it("when accounts refuses the currency or rate, then its violations come back as 422", async () => {
      const doc = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/exchange-rates/eur`, { rate: "0" }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect((doc.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(["currency", "rate"]);
    });

    it("when the body is not a JSON object, then 400", async () => {
      expectProblem(
        await t.app.inject({
          method: "PUT",
          url: `/admin/v1/merchants/${merchantId}/exchange-rates/EUR`,
          headers: admin,
          payload: '"3.3"',
        }),
        400,
        "bad-request",
        "Bad Request",
      );
    });
  });

  it("when accounts is unreachable, then 503 service-unavailable", async () => {
    t.outage.accounts = true;
    const res = await call("POST", "/admin/v1/merchants", { name: "Shop" });
    expectProblem(res, 503, "service-unavailable", "Service Unavailable");
    expect(res.headers["retry-after"]).toBe("1");
  });
});
