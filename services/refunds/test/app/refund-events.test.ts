import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { RefundEventSchema, RefundMethod, RefundStatus, RefundType } from "@gateway/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRefund } from "../../src/app/create-refund.js";
import { resolveManualRefund } from "../../src/app/manual-refunds.js";
import { errorOf } from "../support/reason-of.js";
import { type RefundHarness, startRefundHarness } from "../support/refund-harness.js";

let h: RefundHarness;

beforeAll(async () => {
  h = await startRefundHarness();
});

afterAll(async () => {
  await h.close();
});

/** The refund's events waiting in its outbox, decoded as the webhooks service will read them. */
async function eventsOf(refundId: string) {
  return (await h.refunds.findPendingOutbox(10_000))
    .filter((e) => e.refundId === refundId)
    .map((e) => ({ stored: e, decoded: fromBinary(RefundEventSchema, e.payload) }));
}

/** A paid session whose acquirer order is already refunded elsewhere: our refund goes to the manual queue. */
async function manualRefund(amount: string) {
  h.setSettled(true);
  const s = await h.paidSession(6_000n);
  await h.acquirer.refund({
    terminal: h.terminal,
    acquirerOrderId: s.acquirerOrderId,
    amountMinor: 6_000n,
    externalRefundId: "outside",
  });
  const refund = await createRefund(h.deps, {
    ...s,
    type: "PARTIAL",
    amount,
    reason: "broken",
    metadataJson: '{"ticket":"T-9","n":1.50}',
  });
  expect(refund.status).toBe("PENDING_MANUAL");
  return { s, refund };
}

describe("refund events", () => {
  it("when the acquirer confirms a refund, then one refund.succeeded event is stored with the refund and the session's facts", async () => {
    h.setSettled(false);
    const s = await h.paidSession(34_000n);
    const refund = await createRefund(h.deps, {
      ...s,
      type: "FULL",
      reason: "customer asked",
      metadataJson: '{"k":"v"}',
    });
    const events = await eventsOf(refund.id);
    expect(events).toHaveLength(1);
    const [{ stored, decoded }] = events as [(typeof events)[0]];
    expect(stored).toMatchObject({ type: "refund.succeeded", eventId: expect.stringMatching(/^evt_/) });
    expect(decoded).toMatchObject({
      eventId: stored.eventId,
      eventType: "refund.succeeded",
      sessionMerchantReference: `order-${s.sessionId}`,
      sessionOrderNumber: expect.stringMatching(/^GW-/),
      sessionWebhookUrl: "",
      refund: {
        id: refund.id,
        sessionId: s.sessionId,
        scope: s.scope,
        refundType: RefundType.FULL,
        status: RefundStatus.SUCCEEDED,
        amount: "34.000",
        currency: "TND",
        reason: "customer asked",
        metadataJson: '{"k":"v"}',
        automated: true,
        acquirerErrorMessage: "",
        method: RefundMethod.REVERSAL,
      },
    });
    expect(timestampDate(decoded.occurredAt!)).toEqual(stored.occurredAt);
  });

  it("when the acquirer cannot confirm, then no event is stored until operations settle it", async () => {
    const { refund } = await manualRefund("2.000");
    expect(await eventsOf(refund.id)).toEqual([]);
  });

  it("when operations mark a manual refund done, then refund.succeeded carries automated false, the acquirer's reason and exact amounts", async () => {
    const { refund } = await manualRefund("2.125");
    const resolved = await resolveManualRefund(h.deps, {
      refundId: refund.id,
      outcome: "SUCCEEDED",
      note: "refunded by phone",
    });
    const events = await eventsOf(refund.id);
    expect(events.map((e) => e.stored.type)).toEqual(["refund.succeeded"]);
    expect(events[0]!.decoded.refund).toMatchObject({
      status: RefundStatus.SUCCEEDED,
      amount: "2.125",
      automated: false,
      acquirerErrorMessage: resolved.acquirerErrorMessage,
      resolutionNote: "refunded by phone",
      metadataJson: '{"ticket":"T-9","n":1.50}',
    });
    expect(resolved.acquirerErrorMessage).toMatch(/exceeds the deposited amount/);
    // Repeating the resolution changes nothing and tells the merchant nothing new.
    await resolveManualRefund(h.deps, { refundId: refund.id, outcome: "SUCCEEDED", note: "again" });
    expect((await eventsOf(refund.id)).map((e) => e.stored.eventId)).toEqual([events[0]!.stored.eventId]);
  });

  it("when operations mark a manual refund failed, then refund.failed is stored once and a later SUCCEEDED is refused without an event", async () => {
    const { s, refund } = await manualRefund("1.000");
    await resolveManualRefund(h.deps, { refundId: refund.id, outcome: "FAILED", note: "acquirer says no" });
    expect(
      (
        await errorOf(() =>
          resolveManualRefund(h.deps, { refundId: refund.id, outcome: "SUCCEEDED", note: "" }),
        )
      ).reason,
    ).toBe("INVALID_STATE");
    const events = await eventsOf(refund.id);
    expect(events.map((e) => [e.stored.type, e.decoded.refund?.status])).toEqual([
      ["refund.failed", RefundStatus.FAILED],
    ]);
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(0n);
  });

  it("when an event is stored, then the relay is woken", async () => {
    let woken = 0;
    const deps = { ...h.deps, outbox: { wake: () => void woken++ } };
    const { refund } = await manualRefund("0.500");
    await resolveManualRefund(deps, { refundId: refund.id, outcome: "FAILED", note: "" });
    expect(woken).toBe(1);
  });
});
