import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

const admin = { ...bearer(ADMIN_TOKEN), "content-type": "application/json" };
const PASSWORD = "Admin-Terminal-Password-Never-Shown";
const TERMINAL = {
  base_url: "http://localhost:8080/epg/rest",
  username: "sim-merchant",
  password: PASSWORD,
  active: true,
};

describe("admin API: terminals and fees", () => {
  let t: TestEdge;
  let merchantId: string;

  const call = (
    method: "PUT" | "GET",
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

  const fieldsAndCodes = (doc: Record<string, unknown>) =>
    (doc.errors as Array<{ field: string; code: string }>).map((e) => [e.field, e.code]);

  beforeEach(async () => {
    t = createTestEdge();
    merchantId = (
      await t.app.inject({
        method: "POST",
        url: "/admin/v1/merchants",
        headers: admin,
        payload: JSON.stringify({ name: "Shop" }),
      })
    ).json().id as string;
  });

  describe("terminals", () => {
    it("when a test terminal is set, then 200 with its settings and without the password, which reached accounts", async () => {
      const res = await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, TERMINAL);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.json()).toEqual({
        merchant_id: merchantId,
        mode: "test",
        base_url: "http://localhost:8080/epg/rest",
        username: "sim-merchant",
        active: true,
        updated_at: "2026-01-15T10:00:00.000Z",
      });
      expect(res.body).not.toContain(PASSWORD);
      expect(t.accounts.terminals.get(`${merchantId}:test`)?.password).toBe(PASSWORD);
    });

    it("when active is left out, then the terminal is active; when false, it is inactive", async () => {
      const { active: _active, ...withoutActive } = TERMINAL;
      expect(
        (await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, withoutActive)).json().active,
      ).toBe(true);
      expect(
        (
          await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, {
            ...TERMINAL,
            active: false,
          })
        ).json().active,
      ).toBe(false);
    });

    it("when a terminal is read, then 200 with the same settings and still no password", async () => {
      await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, TERMINAL);
      const res = await call("GET", `/admin/v1/merchants/${merchantId}/terminals/test`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ merchant_id: merchantId, mode: "test", username: "sim-merchant" });
      expect(res.body).not.toContain(PASSWORD);
    });

    it("when no terminal is set for the mode, then GET is 404", async () => {
      expectProblem(
        await call("GET", `/admin/v1/merchants/${merchantId}/terminals/live`),
        404,
        "not-found",
        "Not Found",
      );
    });

    it("when a live terminal is set for an unverified merchant, then 403; once verified, 200 in live mode", async () => {
      const live = { ...TERMINAL, base_url: "https://acquirer.example/payment/rest" };
      expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/live`, live),
        403,
        "forbidden",
        "Forbidden",
      );
      await t.app.inject({
        method: "POST",
        url: `/admin/v1/merchants/${merchantId}/verification`,
        headers: admin,
      });
      const res = await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/live`, live);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ mode: "live", base_url: "https://acquirer.example/payment/rest" });
    });

    it("when the mode is neither test nor live, then 422 on mode, for PUT and GET, before accounts is asked", async () => {
      const put = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/prod`, TERMINAL),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(put.errors).toEqual([{ field: "mode", code: "invalid", message: 'Must be "test" or "live".' }]);
      const get = expectProblem(
        await call("GET", `/admin/v1/merchants/${merchantId}/terminals/LIVE`),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(fieldsAndCodes(get)).toEqual([["mode", "invalid"]]);
      expect(t.accounts.terminals.size).toBe(0);
    });

    it("when members are missing, of the wrong JSON type, or unknown, then 422 lists each with the mode, and never the password", async () => {
      const doc = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/staging`, {
          base_url: 5,
          password: [PASSWORD],
          active: "yes",
          pasword: PASSWORD,
        }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(fieldsAndCodes(doc)).toEqual([
        ["mode", "invalid"],
        ["base_url", "invalid"],
        ["username", "required"],
        ["password", "invalid"],
        ["active", "invalid"],
        ["pasword", "invalid"],
      ]);
      expect(JSON.stringify(doc)).not.toContain(PASSWORD);
      expect(t.accounts.terminals.size).toBe(0);
    });

    it("when accounts refuses the values, then its violations come back as 422", async () => {
      const doc = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, {
          base_url: "ftp://x",
          username: "",
          password: "",
        }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(fieldsAndCodes(doc)).toEqual([
        ["base_url", "invalid"],
        ["username", "required"],
        ["password", "required"],
      ]);
    });

    it("when the merchant does not exist, then 404", async () => {
      expectProblem(
        await call("PUT", "/admin/v1/merchants/mer_nope/terminals/test", TERMINAL),
        404,
        "not-found",
        "Not Found",
      );
    });

    it("when the body is not a JSON object, then 400", async () => {
      const res = await t.app.inject({
        method: "PUT",
        url: `/admin/v1/merchants/${merchantId}/terminals/test`,
        headers: admin,
        payload: "[]",
      });
      expectProblem(res, 400, "bad-request", "Bad Request");
    });

    it("when terminals are set, read and refused, then no log line holds the password", async () => {
      await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, TERMINAL);
      await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/live`, {
        ...TERMINAL,
        base_url: "https://acquirer.example/rest",
      });
      await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/nope`, TERMINAL);
      await call("GET", `/admin/v1/merchants/${merchantId}/terminals/test`);
      expect(t.logLines.length).toBeGreaterThan(0);
      expect(t.logLines.join("\n")).not.toContain(PASSWORD);
    });
  });

  describe("fees", () => {
    it("when a merchant has no plan, then GET answers the zero plan with no update time", async () => {
      const res = await call("GET", `/admin/v1/merchants/${merchantId}/fees`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ merchant_id: merchantId, percent: "0", fixed: "0.000", updated_at: null });
    });

    it("when a plan is set, then 200 with the plan as accounts normalised it, and GET reads it back", async () => {
      const res = await call("PUT", `/admin/v1/merchants/${merchantId}/fees`, {
        percent: "2.50",
        fixed: "0.300",
      });
      expect(res.statusCode).toBe(200);
      const plan = {
        merchant_id: merchantId,
        percent: "2.5",
        fixed: "0.300",
        updated_at: "2026-01-15T10:00:00.000Z",
      };
      expect(res.json()).toEqual(plan);
      expect((await call("GET", `/admin/v1/merchants/${merchantId}/fees`)).json()).toEqual(plan);
    });

    it("when percent or fixed are JSON numbers, missing or unknown members are sent, then 422 before accounts is called", async () => {
      const doc = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/fees`, { percent: 2.5, rate: "1" }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(doc.errors).toEqual([
        { field: "percent", code: "invalid", message: expect.stringContaining("not a JSON number") },
        { field: "fixed", code: "required", message: "This field is required." },
        { field: "rate", code: "invalid", message: "Unknown field." },
      ]);
    });

    it("when accounts refuses the values, then 422 with percent and fixed", async () => {
      const doc = expectProblem(
        await call("PUT", `/admin/v1/merchants/${merchantId}/fees`, { percent: "100", fixed: "0.3" }),
        422,
        "validation-error",
        "Validation Error",
      );
      expect(fieldsAndCodes(doc)).toEqual([
        ["percent", "invalid"],
        ["fixed", "invalid"],
      ]);
    });

    it("when the merchant does not exist, then 404 for PUT and GET", async () => {
      expectProblem(
        await call("PUT", "/admin/v1/merchants/mer_nope/fees", { percent: "1", fixed: "0.000" }),
        404,
        "not-found",
        "Not Found",
      );
      expectProblem(await call("GET", "/admin/v1/merchants/mer_nope/fees"), 404, "not-found", "Not Found");
    });
  });

  describe("guard", () => {
    it("when the admin token is missing or wrong, then 401 and nothing reaches accounts", async () => {
      for (const headers of [
        { "content-type": "application/json" },
        { ...bearer("wrong"), "content-type": "application/json" },
      ]) {
        expectProblem(
          await call("PUT", `/admin/v1/merchants/${merchantId}/terminals/test`, TERMINAL, headers),
          401,
          "unauthorized",
          "Unauthorized",
        );
        expectProblem(
          await call(
            "PUT",
            `/admin/v1/merchants/${merchantId}/fees`,
            { percent: "1", fixed: "0.000" },
            headers,
          ),
          401,
          "unauthorized",
          "Unauthorized",
        );
        expectProblem(
          await call("GET", `/admin/v1/merchants/${merchantId}/fees`, undefined, headers),
          401,
          "unauthorized",
          "Unauthorized",
        );
      }
      expect(t.accounts.terminals.size).toBe(0);
    });

    it("when no admin token is configured, then the routes do not exist (404)", async () => {
      const disabled = createTestEdge({ adminToken: undefined });
      expectProblem(
        await disabled.app.inject({
          method: "PUT",
          url: "/admin/v1/merchants/mer_1/terminals/test",
          headers: admin,
          payload: "{}",
        }),
        404,
        "not-found",
        "Not Found",
      );
      expectProblem(
        await disabled.app.inject({ method: "GET", url: "/admin/v1/merchants/mer_1/fees", headers: admin }),
        404,
        "not-found",
        "Not Found",
      );
    });

    it("when another method is used on a terminal path, then 405 with Allow", async () => {
      const res = await t.app.inject({
        method: "DELETE",
        url: `/admin/v1/merchants/${merchantId}/terminals/test`,
        headers: admin,
      });
      expectProblem(res, 405, "method-not-allowed", "Method Not Allowed");
      expect(res.headers.allow).toBe("GET, HEAD, PUT");
    });
  });

  it("when accounts is unreachable, then 503 service-unavailable", async () => {
    t.outage.accounts = true;
    expectProblem(
      await call("PUT", `/admin/v1/merchants/${merchantId}/fees`, { percent: "1", fixed: "0.000" }),
      503,
      "service-unavailable",
      "Service Unavailable",
    );
  });
});
