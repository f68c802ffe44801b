import { timestampDate } from "@bufbuild/protobuf/wkt";
import { DeliveryStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, bearer } from "../fakes/edge-test-harness.js";
import { expectProblem } from "../problem-assertions.js";
import { createWebhooksTestEdge, type WebhooksTestEdge } from "./webhooks-test-edge.js";

const admin = { ...bearer(ADMIN_TOKEN), "content-type": "application/json" };

describe("admin API: webhook endpoints, secrets and resends", () => {
  let t: WebhooksTestEdge;
  let merchantId: string;

  beforeEach(async () => {
    t = createWebhooksTestEdge();
    merchantId = (await t.accounts.createMerchant({ name: "Shop" })).merchant.id;
  });

  const call = (
    method: "POST" | "PUT",
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

  it("when the endpoint is set the first time, then 200 with the url and the whsec_ secret; later sets answer secret null", async () => {
    const first = await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test`, {
      url: "https://shop.example.tn/hooks",
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers["cache-control"]).toBe("no-store");
    const body = first.json();
    expect(Object.keys(body)).toEqual(["url", "secret"]);
    expect(body).toEqual({ url: "https://shop.example.tn/hooks", secret: expect.stringMatching(/^whsec_/) });
    const again = await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test`, {
      url: "https://shop.example.tn/v2",
    });
    expect(again.json()).toEqual({ url: "https://shop.example.tn/v2", secret: null });
    const live = await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/live`, {
      url: "https://shop.example.tn/live",
    });
    expect(live.json().secret).toMatch(/^whsec_/);
    expect(live.json().secret).not.toBe(body.secret);
  });

  it("when the endpoint body or mode is wrong, then 422 on the field; for an unknown merchant 404", async () => {
    const missing = expectProblem(
      await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test`, {}),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(missing.errors).toEqual([{ field: "url", code: "required", message: expect.any(String) }]);
    const typed = expectProblem(
      await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test`, { url: 42, extra: 1 }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect((typed.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(["url", "extra"]);
    const mode = expectProblem(
      await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/prod`, {
        url: "https://x.example/",
      }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(mode.errors).toEqual([{ field: "mode", code: "invalid", message: 'Must be "test" or "live".' }]);
    const insecure = expectProblem(
      await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/live`, {
        url: "http://x.example/",
      }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(insecure.errors).toEqual([{ field: "url", code: "invalid", message: expect.any(String) }]);
    expectProblem(
      await call("PUT", "/admin/v1/merchants/mer_nobody/webhook-endpoints/test", {
        url: "https://x.example/",
      }),
      404,
      "not-found",
      "Not Found",
    );
    expect(t.webhooks.endpoints.size).toBe(0);
  });

  it("when the secret is rotated, then 200 with the new secret and when the old one stops signing", async () => {
    const { secret: old } = (
      await call("PUT", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test`, {
        url: "https://shop.example.tn/hooks",
      })
    ).json();
    const res = await call("POST", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test/rotate-secret`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toEqual({
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: "2026-01-16T10:00:00.000Z",
    });
    expect(res.json().secret).not.toBe(old);
    const fresh = (
      await call("POST", `/admin/v1/merchants/${merchantId}/webhook-endpoints/live/rotate-secret`, {})
    ).json();
    expect(fresh.previous_secret_expires_at).toBeNull();
    expectProblem(
      await call("POST", `/admin/v1/merchants/${merchantId}/webhook-endpoints/test/rotate-secret`, {
        now: true,
      }),
      422,
      "validation-error",
      "Validation Error",
    );
  });

  it("when a delivery is resent, then 202 with the new PENDING record", async () => {
    const original = t.webhooks.addDelivery(
      { merchantId, livemode: false },
      { status: DeliveryStatus.FAILED, httpStatusCode: 500 },
    );
    const res = await call("POST", `/admin/v1/webhook-deliveries/${original.id}/resend`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      event_id: original.eventId,
      session_id: original.sessionId,
      attempt_number: 2,
      status: "PENDING",
      http_status_code: null,
    });
    expect(res.json().id).not.toBe(original.id);
    expectProblem(
      await call("POST", "/admin/v1/webhook-deliveries/whd_nope/resend"),
      404,
      "not-found",
      "Not Found",
    );
  });

  it("when deliveries are resent in bulk, then 202 with how many, and the filter reaches the service", async () => {
    const scope = { merchantId, livemode: true };
    t.webhooks.addDelivery(scope, { status: DeliveryStatus.FAILED, event: "session.failed" });
    t.webhooks.addDelivery(scope, { status: DeliveryStatus.FAILED, event: "session.succeeded" });
    t.webhooks.addDelivery(scope, { status: DeliveryStatus.SUCCEEDED, event: "session.failed" });
    const res = await call("POST", "/admin/v1/webhook-deliveries/resend", {
      merchant_id: merchantId,
      mode: "live",
      created_gte: "2026-01-15T00:00:00Z",
      created_lte: "2026-01-15T12:00:00+01:00",
      status: "FAILED",
      event: "session.failed",
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ resent: 1, created_lte: "2026-01-15T11:00:00.000Z" });
    const sent = t.webhooks.bulkRequests[0]!;
    expect(sent).toMatchObject({
      scope: { merchantId, livemode: true },
      status: DeliveryStatus.FAILED,
      event: "session.failed",
    });
    expect(timestampDate(sent.createdGte!).toISOString()).toBe("2026-01-15T00:00:00.000Z");
    expect(timestampDate(sent.createdLte!).toISOString()).toBe("2026-01-15T11:00:00.000Z");
    expect(
      (
        await call("POST", "/admin/v1/webhook-deliveries/resend", { merchant_id: merchantId, mode: "test" })
      ).json(),
    ).toEqual({ resent: 0, created_lte: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it("when a bulk resend filter is wrong, then each problem is reported; an unknown merchant is 404", async () => {
    const doc = expectProblem(
      await call("POST", "/admin/v1/webhook-deliveries/resend", {
        mode: "prod",
        created_gte: "yesterday",
        status: "LOST",
        event: "session.x",
        limit: 3,
      }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect((doc.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      "created_gte",
      "event",
      "limit",
      "merchant_id",
      "mode",
      "status",
    ]);
    expectProblem(
      await call("POST", "/admin/v1/webhook-deliveries/resend", { merchant_id: "mer_nobody", mode: "test" }),
      404,
      "not-found",
      "Not Found",
    );
    expect(t.webhooks.bulkRequests).toHaveLength(0);
  });

  it("when the admin token is missing, then every webhook admin route answers 401", async () => {
    const noToken = { "content-type": "application/json" };
    expectProblem(
      await call(
        "PUT",
        `/admin/v1/merchants/${merchantId}/webhook-endpoints/test`,
        { url: "https://x.example/" },
        noToken,
      ),
      401,
      "unauthorized",
      "Unauthorized",
    );
    expectProblem(
      await call(
        "POST",
        `/admin/v1/merchants/${merchantId}/webhook-endpoints/test/rotate-secret`,
        undefined,
        noToken,
      ),
      401,
      "unauthorized",
      "Unauthorized",
    );
    expectProblem(
      await call("POST", "/admin/v1/webhook-deliveries/whd_x/resend", undefined, noToken),
      401,
      "unauthorized",
      "Unauthorized",
    );
    expectProblem(
      await call(
        "POST",
        "/admin/v1/webhook-deliveries/resend",
        { merchant_id: merchantId, mode: "test" },
        noToken,
      ),
      401,
      "unauthorized",
      "Unauthorized",
    );
    expect(t.webhooks.endpoints.size).toBe(0);
  });
});
