import { beforeEach, describe, expect, it } from "vitest";
import { expectProblem } from "../problem-assertions.js";
import {
  createRefundsTestEdge,
  merchantHeaders,
  paidSession,
  type RefundsTestEdge,
} from "./refunds-test-edge.js";

const refundUrl = (sessionId: string) => `/api/v1/gateway/sessions/${sessionId}/refund/`;

describe("POST /api/v1/gateway/sessions/{session_id}/refund/", () => {
  let t: RefundsTestEdge;
  let headers: Record<string, string>;
  let sessionId: string;

  const refund = (payload: unknown, id = sessionId, h = headers) =>
    t.app.inject({
      method: "POST",
      url: refundUrl(id),
      headers: h,
      payload: typeof payload === "string" ? payload : JSON.stringify(payload),
    });

  beforeEach(async () => {
    t = createRefundsTestEdge();
    headers = await merchantHeaders(t);
    sessionId = (await paidSession(t, headers, "100.000")).id;
  });

  it("when a FULL refund is confirmed, then 201 with refund_id, refunded_amount, automated_refund and no epg_error_message", async () => {
    const res = await refund({ refund_type: "FULL", reason: "returned goods" });
    expect(res.statusCode).toBe(201);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = res.json();
    expect(Object.keys(body)).toEqual(["refund_id", "refunded_amount", "automated_refund"]);
    expect(body).toEqual({
      refund_id: expect.stringMatching(/^re_/),
      refunded_amount: "100.000",
      automated_refund: true,
    });
    expect(t.refunds.createRequests[0]).toMatchObject({
      sessionId,
      reason: "returned goods",
      inputViolations: [],
    }); // none is ever sent any more
  });

  it("when a PARTIAL refund is confirmed, then 201 with its amount, and a later FULL takes what is left", async () => {
    const partial = await refund({ refund_type: "PARTIAL", amount: "30.250" });
    expect(partial.statusCode).toBe(201);
    expect(partial.json()).toEqual({
      refund_id: expect.any(String),
      refunded_amount: "30.250",
      automated_refund: true,
    });
    const rest = await refund({ refund_type: "FULL" });
    expect(rest.json().refunded_amount).toBe("69.750");
    expectProblem(await refund({ refund_type: "FULL" }), 422, "refund-failed", "Refund Failed");
  });

  it("when the acquirer does not confirm, then still 201 with automated_refund false and epg_error_message", async () => {
    t.refunds.acquirerFailure = "Reversal declined by the issuer";
    const res = await refund({ refund_type: "PARTIAL", amount: "10.000" });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual([
      "refund_id",
      "refunded_amount",
      "automated_refund",
      "epg_error_message",
    ]);
    expect(body).toMatchObject({
      refunded_amount: "10.000",
      automated_refund: false,
      epg_error_message: "Reversal declined by the issuer",
    });
  });

  it("when an Idempotency-Key header is sent, then the service gets it; without one, none", async () => {
    expect(
      (
        await refund({ refund_type: "FULL" }, sessionId, {
          ...headers,
          "idempotency-key": "  order-42/refund-1 ",
        })
      ).statusCode,
    ).toBe(201);
    expect(t.refunds.createRequests[0]!.idempotencyKey).toBe("order-42/refund-1");
    await refund({ refund_type: "FULL" });
    expect(t.refunds.createRequests[1]!.idempotencyKey).toBeUndefined();
  });

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["not printable ASCII", "clé-1"],
  ])("when the Idempotency-Key is %s, then 422 invalid on Idempotency-Key", async (_case, key) => {
    const res = await refund({ refund_type: "FULL" }, sessionId, { ...headers, "idempotency-key": key });
    const doc = expectProblem(res, 422, "validation-error", "Validation Error");
    expect(doc.errors).toEqual([expect.objectContaining({ field: "Idempotency-Key", code: "invalid" })]);
    // Changed with issue 17 item 4: answered at the edge, no longer forwarded as input_violations.
    expect(t.refunds.createRequests).toHaveLength(0);
  });

  it("when metadata is an object, then the service gets the merchant's exact JSON text", async () => {
    const payload = '{"refund_type":"FULL","metadata":{ "ticket" : "T-1", "n": 1.50 }}';
    expect((await refund(payload)).statusCode).toBe(201);
    expect(t.refunds.createRequests[0]!.metadataJson).toBe('{ "ticket" : "T-1", "n": 1.50 }');
  });

  it("when null members are given, then they count as absent", async () => {
    const res = await refund({ refund_type: "FULL", reason: null, amount: null, metadata: null });
    expect(res.statusCode).toBe(201);
    const sent = t.refunds.createRequests[0]!;
    expect(sent.reason).toBeUndefined();
    expect(sent.amount).toBeUndefined();
    expect(sent.metadataJson).toBeUndefined();
  });

  it("when the amount is a JSON number, then 422 invalid_type on amount and nothing is refunded", async () => {
    const doc = expectProblem(
      await refund({ refund_type: "PARTIAL", amount: 10.5 }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([{ field: "amount", code: "invalid_type", message: expect.any(String) }]);
    expect(t.refunds.refunds).toHaveLength(0);
  });

  it("when a field is unknown, then 422 invalid on it", async () => {
    const doc = expectProblem(
      await refund({ refund_type: "FULL", currency: "TND" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([{ field: "currency", code: "invalid", message: "Unknown field." }]);
    expect(t.refunds.refunds).toHaveLength(0);
  });

  // Changed with issue 17 item 4: refund_type is required by the route schema, so it is reported
  // with the other shape faults in declared order (it was the service's, appended last).
  it("when refund_type is missing, then its required violation comes with the type violations in one 422", async () => {
    const doc = expectProblem(
      await refund({ reason: 7, metadata: "x" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([
      { field: "refund_type", code: "required", message: expect.any(String) },
      { field: "reason", code: "invalid", message: "Must be a string." },
      { field: "metadata", code: "invalid", message: "Must be a JSON object." },
    ]);
  });

  it("when refund_type is not FULL or PARTIAL, then 422 invalid on refund_type (not also required)", async () => {
    const doc = expectProblem(
      await refund({ refund_type: "full" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(doc.errors).toEqual([
      { field: "refund_type", code: "invalid", message: 'Must be "FULL" or "PARTIAL".' },
    ]);
  });

  it("when PARTIAL has no amount or a badly written one, then 422 from the service on amount", async () => {
    const missing = expectProblem(
      await refund({ refund_type: "PARTIAL" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(missing.errors).toEqual([{ field: "amount", code: "required", message: expect.any(String) }]);
    const precision = expectProblem(
      await refund({ refund_type: "PARTIAL", amount: "10.5" }),
      422,
      "validation-error",
      "Validation Error",
    );
    expect(precision.errors).toEqual([
      { field: "amount", code: "invalid_precision", message: expect.any(String) },
    ]);
  });

  it.each([["[]"], ['"FULL"'], ["42"]])("when the body is %s (not an object), then 400", async (payload) => {
    expectProblem(await refund(payload), 400, "bad-request", "Bad Request");
  });

  it("when the session is another merchant's or unknown, then 404 and nothing is refunded", async () => {
    const other = await merchantHeaders(t);
    expectProblem(await refund({ refund_type: "FULL" }, sessionId, other), 404, "not-found", "Not Found");
    expectProblem(await refund({ refund_type: "FULL" }, "ps_unknown"), 404, "not-found", "Not Found");
    expect(t.refunds.refunds).toHaveLength(0);
  });

  it("when the session did not succeed, then 422 invalid-state", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/v1/gateway/sessions/",
      headers,
      payload: JSON.stringify({ merchant_reference: "open", amount: "5.000" }),
    });
    expectProblem(
      await refund({ refund_type: "FULL" }, created.json().id),
      422,
      "invalid-state",
      "Invalid State",
    );
  });

  it("when the session has no successful payment, then 422 no-payment", async () => {
    // The paid session as the sessions service answers it, with no successful attempt.
    t.sessions.rewriteAnswer = (method, answer) => {
      if (method === "GetSession") (answer.session as { attempts: unknown[] }).attempts = [];
    };
    expectProblem(await refund({ refund_type: "FULL" }), 422, "no-payment", "No Payment");
  });

  it("when there is no API key, then 401 and the service is not called", async () => {
    const res = await refund({ refund_type: "FULL" }, sessionId, { "content-type": "application/json" });
    expectProblem(res, 401, "unauthorized", "Unauthorized");
    expect(t.refunds.createRequests).toHaveLength(0);
  });
});

describe("refund route without a refunds service", () => {
  it("when deps.refunds is unset, then the route is not served (404 problem)", async () => {
    const t = createRefundsTestEdge({ withRefunds: false });
    const headers = await merchantHeaders(t);
    const session = await paidSession(t, headers);
    const res = await t.app.inject({
      method: "POST",
      url: refundUrl(session.id),
      headers,
      payload: JSON.stringify({ refund_type: "FULL" }),
    });
    expectProblem(res, 404, "not-found", "Not Found");
  });
});
