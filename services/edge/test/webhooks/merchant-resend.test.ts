import { DeliveryStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { expectProblem } from "../problem-assertions.js";
import { type WebhooksTestEdge, webhooksTestEdgeWithKey } from "./webhooks-test-edge.js";

// POST /api/v1/gateway/webhooks/{delivery_id}/resend/ (docs/api/webhooks.md#resend): a merchant's
// own resend, scoped by its key.
describe("a merchant's webhook resend", () => {
  let t: WebhooksTestEdge;
  let headers: Record<string, string>;
  let merchantId: string;

  beforeEach(async () => {
    ({ t, headers, merchantId } = await webhooksTestEdgeWithKey());
  });

  const resend = (id: string, extra: { payload?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({
      method: "POST",
      url: `/api/v1/gateway/webhooks/${id}/resend/`,
      headers: { ...headers, ...extra.headers },
      ...(extra.payload !== undefined ? { payload: extra.payload } : {}),
    });

  it("when its own delivery is resent, then 202 answers a new PENDING attempt of the same event", async () => {
    const failed = t.webhooks.addDelivery({ merchantId, livemode: false }, { status: DeliveryStatus.FAILED });
    const res = await resend(failed.id);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      session_id: failed.sessionId,
      event: failed.event,
      event_id: failed.eventId,
      attempt_number: 2,
      status: "PENDING",
    });
    expect(res.json().id).not.toBe(failed.id);
    const withEmptyObject = await resend(failed.id, {
      payload: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(withEmptyObject.statusCode).toBe(202);
  });

  it("when the delivery is another account's, the other mode's or unknown, then 404 as if it did not exist", async () => {
    const foreign = t.webhooks.addDelivery({ merchantId: "mer_someone_else", livemode: false });
    const live = t.webhooks.addDelivery({ merchantId, livemode: true });
    for (const id of [foreign.id, live.id, "whd_unknown"])
      expectProblem(await resend(id), 404, "not-found", "Not Found");
    expect(t.webhooks.deliveries).toHaveLength(2);
  });

  it("when a body has members, then 422 and nothing is resent", async () => {
    const own = t.webhooks.addDelivery({ merchantId, livemode: false });
    const res = await resend(own.id, { payload: '{"x":1}', headers: { "content-type": "application/json" } });
    expectProblem(res, 422, "validation-error", "Validation Error");
    expect(t.webhooks.deliveries).toHaveLength(1);
  });

  it("when there is no key, then 401", async () => {
    const own = t.webhooks.addDelivery({ merchantId, livemode: false });
    expectProblem(
      await resend(own.id, { headers: { authorization: "" } }),
      401,
      "unauthorized",
      "Unauthorized",
    );
  });
});
