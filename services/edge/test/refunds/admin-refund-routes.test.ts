import { RefundStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, bearer } from "../fakes/edge-test-harness.js";
import { expectProblem } from "../problem-assertions.js";
import {
  createRefundsTestEdge,
  merchantHeaders,
  paidSession,
  type RefundsTestEdge,
} from "./refunds-test-edge.js";

const admin = { ...bearer(ADMIN_TOKEN), "content-type": "application/json" };
const REFUND_FIELDS = [
  "id",
  "session_id",
  "merchant_id",
  "mode",
  "refund_type",
  "status",
  "amount",
  "currency",
  "reason",
  "automated",
  "acquirer_error_message",
  "created_at",
];

describe("admin API: manual refunds", () => {
  let t: RefundsTestEdge;
  let merchantId: string;
  let sessionId: string;
  let headers: Record<string, string>;

  /** A refund the acquirer did not confirm: it waits in operations' queue. */
  const manualRefund = async (amount: string): Promise<string> => {
    t.refunds.acquirerFailure = "Acquirer timed out";
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/gateway/sessions/${sessionId}/refund/`,
      headers,
      payload: JSON.stringify({ refund_type: "PARTIAL", amount, reason: "damaged" }),
    });
    expect(res.statusCode).toBe(201);
    return res.json().refund_id;
  };

  const call = (method: "GET" | "POST", url: string, payload?: unknown, h: Record<string, string> = admin) =>
    t.app.inject({
      method,
      url,
      headers: h,
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });

  beforeEach(async () => {
    t = createRefundsTestEdge();
    headers = await merchantHeaders(t);
    const session = await paidSession(t, headers, "100.000");
    sessionId = session.id;
    merchantId = session.scope!.merchantId;
  });

  it("when refunds wait for operations, then GET lists them oldest first with the admin refund JSON", async () => {
    const first = await manualRefund("10.000");
    const second = await manualRefund("20.000");
    const res = await call("GET", "/admin/v1/refunds/manual");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(["data", "has_more"]);
    expect(body.has_more).toBe(false);
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([first, second]);
    expect(Object.keys(body.data[0])).toEqual(REFUND_FIELDS);
    expect(body.data[0]).toEqual({
      id: first,
      session_id: sessionId,
      merchant_id: merchantId,
      mode: "test",
      refund_type: "PARTIAL",
      status: "PENDING_MANUAL",
      amount: "10.000",
      currency: "TND",
      reason: "damaged",
      automated: false,
      acquirer_error_message: "Acquirer timed out",
      created_at: "2026-01-15T10:00:00.000Z",
    });
    // One more than the page is asked for, to know whether more wait.
    expect(t.refunds.listRequests.at(-1)!.limit).toBe(21);
  });

  it("when more wait than the limit, then has_more is true", async () => {
    const first = await manualRefund("1.000");
    await manualRefund("2.000");
    const body = (await call("GET", "/admin/v1/refunds/manual?limit=1")).json();
    expect(body).toMatchObject({ has_more: true });
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([first]);
  });

  it("when the query has a bad limit or an unsupported parameter, then 422 on each", async () => {
    const doc = expectProblem(
      await call("GET", "/admin/v1/refunds/manual?limit=0&merchant_id=mer_1"),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([
      { field: "limit", code: "invalid", message: "Must be an integer from 1 to 100." },
      { field: "merchant_id", code: "invalid", message: "Unknown query parameter." },
    ]);
  });

  it("when a manual refund is resolved, then 200 with the refund settled and it leaves the queue", async () => {
    const id = await manualRefund("10.000");
    const res = await call("POST", `/admin/v1/refunds/${id}/resolution`, {
      outcome: "SUCCEEDED",
      note: "done by phone",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, status: "SUCCEEDED", amount: "10.000", automated: false });
    expect(t.refunds.refunds[0]!.resolutionNote).toBe("done by phone");
    expect((await call("GET", "/admin/v1/refunds/manual")).json().data).toEqual([]);
    // The same outcome again is harmless; the other one is a state conflict.
    expect(
      (await call("POST", `/admin/v1/refunds/${id}/resolution`, { outcome: "SUCCEEDED" })).statusCode,
    ).toBe(200);
    expectProblem(
      await call("POST", `/admin/v1/refunds/${id}/resolution`, { outcome: "FAILED" }),
      422,
      "invalid-state",
      "Invalid State",
    );
  });

  it("when a manual refund is resolved FAILED, then its amount can be refunded again", async () => {
    const id = await manualRefund("100.000");
    expect(
      (await call("POST", `/admin/v1/refunds/${id}/resolution`, { outcome: "FAILED" })).json().status,
    ).toBe("FAILED");
    t.refunds.acquirerFailure = undefined;
    const again = await t.app.inject({
      method: "POST",
      url: `/api/v1/gateway/sessions/${sessionId}/refund/`,
      headers,
      payload: JSON.stringify({ refund_type: "FULL" }),
    });
    expect(again.json()).toMatchObject({ refunded_amount: "100.000", automated_refund: true });
  });

  it("when the resolution body is wrong, then 422 on each field; a non-object is 400; an unknown refund 404", async () => {
    const id = await manualRefund("10.000");
    const missing = expectProblem(
      await call("POST", `/admin/v1/refunds/${id}/resolution`, { note: 3, why: "x" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(missing.errors).toEqual([
      { field: "outcome", code: "required", message: "This field is required." },
      { field: "note", code: "invalid", message: "Must be a string." },
      { field: "why", code: "invalid", message: "Unknown field." },
    ]);
    const bad = expectProblem(
      await call("POST", `/admin/v1/refunds/${id}/resolution`, { outcome: "DONE" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(bad.errors).toEqual([
      { field: "outcome", code: "invalid", message: 'Must be "SUCCEEDED" or "FAILED".' },
    ]);
    expectProblem(
      await call("POST", `/admin/v1/refunds/${id}/resolution`, ["SUCCEEDED"]),
      400,
      "bad-request",
      "Bad Request",
    );
    expectProblem(
      await call("POST", "/admin/v1/refunds/re_nobody/resolution", { outcome: "FAILED" }),
      404,
      "not-found",
      "Not Found",
    );
    expect(t.refunds.refunds[0]!.resolutionNote).toBe("");
  });

  it("when the admin token is missing or a merchant API key is used, then 401 and nothing is read or changed", async () => {
    const id = await manualRefund("10.000");
    expectProblem(
      await call("GET", "/admin/v1/refunds/manual", undefined, {}),
      401,
      "unauthorized",
      "Unauthorized",
    );
    expectProblem(
      await call("POST", `/admin/v1/refunds/${id}/resolution`, { outcome: "FAILED" }, headers),
      401,
      "unauthorized",
      "Unauthorized",
    );
    expect(t.refunds.listRequests).toHaveLength(0);
    expect(t.refunds.refunds[0]!.status).toBe(RefundStatus.PENDING_MANUAL);
    expect(t.refunds.refunds[0]!.resolutionNote).toBe("");
  });

  it("when deps.refunds is unset, then the admin refund routes are not served (404)", async () => {
    const bare = createRefundsTestEdge({ withRefunds: false });
    const res = await bare.app.inject({ method: "GET", url: "/admin/v1/refunds/manual", headers: admin });
    expectProblem(res, 404, "not-found", "Not Found");
  });
});
