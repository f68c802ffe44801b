import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { DeliveryStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer } from "../fakes/edge-test-harness.js";
import { expectProblem } from "../problem-assertions.js";
import {
  createWebhooksTestEdge,
  type WebhooksTestEdge,
  webhooksTestEdgeWithKey,
} from "./webhooks-test-edge.js";

describe("webhook delivery history (spec 4.7, 4.8)", () => {
  let t: WebhooksTestEdge;
  let headers: Record<string, string>;
  let merchantId: string;

  beforeEach(async () => {
    ({ t, headers, merchantId } = await webhooksTestEdgeWithKey());
  });

  const scope = () => ({ merchantId, livemode: false });
  const get = (url: string, h = headers) => t.app.inject({ method: "GET", url, headers: h });

  async function createSession(reference = "ref-1"): Promise<string> {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers: { ...headers, "content-type": "application/json" },
      payload: { merchant_reference: reference, amount: "10.000" },
    });
    return res.json().id as string;
  }

  it("when a session's deliveries are listed, then each record has the fields of 2.3, nulls for unset ones, most recent first", async () => {
    const sessionId = await createSession();
    const failed = t.webhooks.addDelivery(scope(), {
      sessionId,
      event: "session.failed",
      status: DeliveryStatus.FAILED,
      httpStatusCode: 500,
      responseTimeMs: 1234,
      errorMessage: "Receiver answered HTTP 500 Internal Server Error",
      nextRetryAt: timestampFromDate(new Date(Date.UTC(2026, 0, 15, 10, 1, 0))),
    });
    t.clock.advance(60_000);
    const pending = t.webhooks.addDelivery(scope(), {
      sessionId,
      event: "session.failed",
      eventId: failed.eventId,
      attemptNumber: 2,
      status: DeliveryStatus.PENDING,
      httpStatusCode: undefined,
      responseTimeMs: undefined,
    });
    t.webhooks.addDelivery(scope(), { sessionId: "ps_other_session" });

    const res = await get(`/api/v1/gateway/sessions/${sessionId}/webhooks/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = res.json();
    expect(Object.keys(body)).toEqual(["data", "has_more", "next_cursor"]);
    expect(body.has_more).toBe(false);
    expect(body.next_cursor).toBeNull();
    expect(body.data).toEqual([
      {
        id: pending.id,
        session_id: sessionId,
        event: "session.failed",
        event_id: failed.eventId,
        url: "https://shop.example.tn/hooks",
        attempt_number: 2,
        status: "PENDING",
        http_status_code: null,
        response_time_ms: null,
        error_message: null,
        next_retry_at: null,
        created_at: "2026-01-15T10:01:00.000Z",
      },
      {
        id: failed.id,
        session_id: sessionId,
        event: "session.failed",
        event_id: failed.eventId,
        url: "https://shop.example.tn/hooks",
        attempt_number: 1,
        status: "FAILED",
        http_status_code: 500,
        response_time_ms: 1234,
        error_message: "Receiver answered HTTP 500 Internal Server Error",
        next_retry_at: "2026-01-15T10:01:00.000Z",
        created_at: "2026-01-15T10:00:00.000Z",
      },
    ]);
    expect(Object.keys(body.data[0])).toEqual([
      "id",
      "session_id",
      "event",
      "event_id",
      "url",
      "attempt_number",
      "status",
      "http_status_code",
      "response_time_ms",
      "error_message",
      "next_retry_at",
      "created_at",
    ]);
  });

  it("when no endpoint was configured, then the record shows url null and says why", async () => {
    const sessionId = await createSession();
    t.webhooks.addDelivery(scope(), {
      sessionId,
      url: "",
      status: DeliveryStatus.FAILED,
      httpStatusCode: undefined,
      responseTimeMs: undefined,
      errorMessage: "No webhook endpoint configured",
    });
    const [record] = (await get(`/api/v1/gateway/sessions/${sessionId}/webhooks/`)).json().data;
    expect(record).toMatchObject({
      url: null,
      status: "FAILED",
      http_status_code: null,
      error_message: "No webhook endpoint configured",
    });
  });

  it("when the session belongs to another merchant, then 404 not-found and its history is never read", async () => {
    const other = await t.accounts.issueKey();
    const theirs = (
      await t.app.inject({
        method: "POST",
        url: "/api/v1/gateway/sessions/",
        headers: { ...bearer(other.secret), "content-type": "application/json" },
        payload: { merchant_reference: "theirs", amount: "5.000" },
      })
    ).json().id as string;
    t.webhooks.addDelivery({ merchantId: other.merchantId, livemode: false }, { sessionId: theirs });
    expectProblem(await get(`/api/v1/gateway/sessions/${theirs}/webhooks/`), 404, "not-found", "Not Found");
    expectProblem(
      await get("/api/v1/gateway/sessions/ps_does_not_exist/webhooks/"),
      404,
      "not-found",
      "Not Found",
    );
    expect(t.webhooks.listRequests).toHaveLength(0);
  });

  it("when the same session is asked for with the live key of the same merchant, then it is not found (modes are separate)", async () => {
    const sessionId = await createSession();
    await t.accounts.verifyMerchant({ merchantId });
    const live = await t.accounts.createApiKey({ merchantId, livemode: true });
    expectProblem(
      await get(`/api/v1/gateway/sessions/${sessionId}/webhooks/`, bearer(live.secret)),
      404,
      "not-found",
      "Not Found",
    );
  });

  it("when the account history is listed, then it pages with next_cursor and applies every filter", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const event =
        i === 3
          ? "session.expired"
          : i === 11
            ? "refund.failed"
            : i === 13
              ? "session.late_payment_returned"
              : "session.succeeded";
      ids.push(
        t.webhooks.addDelivery(scope(), {
          sessionId: i % 2 === 0 ? "ps_even" : "ps_odd",
          status: i === 7 ? DeliveryStatus.FAILED : DeliveryStatus.SUCCEEDED,
          event,
        }).id,
      );
      t.clock.advance(1_000);
    }
    t.webhooks.addDelivery({ merchantId: "mer_someone_else", livemode: false });

    const first = (await get("/api/v1/gateway/webhooks/")).json();
    expect(first.data).toHaveLength(20);
    expect(first.data[0].id).toBe(ids[24]);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(ids[5]);
    const rest = (await get(`/api/v1/gateway/webhooks/?starting_after=${first.next_cursor}`)).json();
    expect(rest.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 5).reverse());
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });

    const ids$ = async (query: string) =>
      (await get(`/api/v1/gateway/webhooks/?${query}`)).json().data.map((d: { id: string }) => d.id);
    expect(await ids$("status=FAILED")).toEqual([ids[7]]);
    expect(await ids$("event=session.expired")).toEqual([ids[3]]);
    // The events beyond the product's original list filter the same way.
    expect(await ids$("event=refund.failed")).toEqual([ids[11]]);
    expect(await ids$("event=session.late_payment_returned")).toEqual([ids[13]]);
    expect((await ids$("session_id=ps_odd&limit=100")).length).toBe(12);
    const eventId = t.webhooks.deliveries.find((d) => d.delivery.id === ids[9])!.delivery.eventId;
    expect(await ids$(`event_id=${eventId}`)).toEqual([ids[9]]);
    expect(await ids$("limit=3")).toHaveLength(3);
    expect(
      t.webhooks.listRequests.every((r) => r.scope?.merchantId === merchantId && r.scope.livemode === false),
    ).toBe(true);
  });

  it("when a session's history is filtered, then the session stays the path's", async () => {
    const sessionId = await createSession();
    const ok = t.webhooks.addDelivery(scope(), { sessionId, status: DeliveryStatus.SUCCEEDED });
    t.webhooks.addDelivery(scope(), { sessionId, status: DeliveryStatus.FAILED });
    const res = await get(`/api/v1/gateway/sessions/${sessionId}/webhooks/?status=SUCCEEDED&limit=5`);
    expect(res.json().data.map((d: { id: string }) => d.id)).toEqual([ok.id]);
    expect(t.webhooks.listRequests.at(-1)).toMatchObject({
      sessionId,
      status: DeliveryStatus.SUCCEEDED,
      page: { limit: 5 },
    });
    const doc = expectProblem(
      await get(`/api/v1/gateway/sessions/${sessionId}/webhooks/?session_id=ps_x`),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([
      { field: "session_id", code: "invalid", message: "Unknown query parameter." },
    ]);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["status=pending", "status"],
    ["status=DELIVERY_STATUS_FAILED", "status"],
    ["event=session.canceled", "event"],
    ["event_id=", "event_id"],
    [`event_id=${"e".repeat(65)}`, "event_id"],
    ["session_id=", "session_id"],
    ["starting_after=", "starting_after"],
    ["colour=red", "colour"],
    ["limit=5&limit=6", "limit"],
  ])("when the account query has %s, then 422 invalid on %s", async (query, field) => {
    const doc = expectProblem(
      await get(`/api/v1/gateway/webhooks/?${query}`),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([{ field, code: "invalid", message: expect.any(String) }]);
  });

  it("when the cursor is another account's delivery, then 422 on starting_after", async () => {
    const theirs = t.webhooks.addDelivery({ merchantId: "mer_other", livemode: false });
    const doc = expectProblem(
      await get(`/api/v1/gateway/webhooks/?starting_after=${theirs.id}`),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([{ field: "starting_after", code: "invalid", message: expect.any(String) }]);
  });

  it("when there is no API key, then 401 before anything is listed", async () => {
    expectProblem(await get("/api/v1/gateway/webhooks/", {}), 401, "unauthorized", "Unauthorized");
    expect(t.webhooks.listRequests).toHaveLength(0);
  });

  it("when the webhooks service is down, then 503 service-unavailable, a retryable problem", async () => {
    t.outage.webhooks = true;
    expectProblem(await get("/api/v1/gateway/webhooks/"), 503, "service-unavailable", "Service Unavailable");
  });

  it("when the edge runs without a webhooks service, then the history routes do not exist and the payment API still works", async () => {
    const bare = createWebhooksTestEdge({ withWebhooks: false });
    const key = await bare.accounts.issueKey();
    expectProblem(
      await bare.app.inject({ method: "GET", url: "/api/v1/gateway/webhooks/", headers: bearer(key.secret) }),
      404,
      "not-found",
      "Not Found",
    );
    const created = await bare.app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers: { ...bearer(key.secret), "content-type": "application/json" },
      payload: { merchant_reference: "r", amount: "1.000" },
    });
    expect(created.statusCode).toBe(201);
  });
});
