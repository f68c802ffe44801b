import { describe, expect, it } from "vitest";
import { buildRefundEnvelope } from "../../src/domain/refund-envelope.js";
import { METADATA, refundEventFacts } from "../support/fixtures.js";

function parse(body: string) {
  return JSON.parse(body) as { id: string; event: string; created_at: string; data: Record<string, unknown> };
}

describe("refund webhook envelope", () => {
  it("when an automated refund succeeded, then data is the refund result of 2.4 and the refund's facts, without epg_error_message or resolved_at", () => {
    const facts = refundEventFacts("refund.succeeded");
    const envelope = parse(buildRefundEnvelope(facts).body);
    expect(Object.keys(envelope)).toEqual(["id", "event", "created_at", "data"]);
    expect(envelope).toMatchObject({
      id: facts.eventId,
      event: "refund.succeeded",
      created_at: "2026-01-02T09:30:00.000Z",
    });
    expect(Object.keys(envelope.data)).toEqual([
      "refund_id",
      "refunded_amount",
      "automated_refund",
      "session_id",
      "merchant_reference",
      "order_number",
      "status",
      "refund_type",
      "currency",
      "reason",
      "metadata",
      "created_at",
    ]);
    expect(envelope.data).toMatchObject({
      refund_id: facts.refund.id,
      refunded_amount: "12.500",
      automated_refund: true,
      session_id: facts.refund.sessionId,
      merchant_reference: "order-42",
      order_number: "GW-ABC123",
      status: "SUCCEEDED",
      refund_type: "PARTIAL",
      currency: "TND",
      reason: "damaged item",
      created_at: "2026-01-02T09:00:00.000Z",
    });
  });

  it("when operations settled a refund, then epg_error_message follows automated_refund and resolved_at is the settlement time", () => {
    for (const type of ["refund.succeeded", "refund.failed"] as const) {
      const facts = refundEventFacts(type, { manual: true });
      const { data } = parse(buildRefundEnvelope(facts).body);
      expect(Object.keys(data).slice(0, 4)).toEqual([
        "refund_id",
        "refunded_amount",
        "automated_refund",
        "epg_error_message",
      ]);
      expect(Object.keys(data).at(-1)).toBe("resolved_at");
      expect(data).toMatchObject({
        automated_refund: false,
        epg_error_message: "Refund amount exceeds the deposited amount",
        status: type === "refund.succeeded" ? "SUCCEEDED" : "FAILED",
        resolved_at: "2026-01-02T09:30:00.000Z",
      });
    }
  });

  it("when the refund has metadata with dots, dollars and 1.50, then its stored text is spliced byte for byte and amounts stay strings", () => {
    const { body, warning } = buildRefundEnvelope(refundEventFacts("refund.succeeded"));
    expect(body).toContain(`"metadata":${METADATA}`);
    expect(body).toContain('"refunded_amount":"12.500"');
    expect(warning.metadataUnreadable).toBe(false);
  });

  it("when the refund has no reason and no metadata, then both are null; unreadable metadata is null with a warning", () => {
    const facts = refundEventFacts("refund.succeeded", { metadataJson: "" });
    facts.refund.reason = undefined;
    expect(parse(buildRefundEnvelope(facts).body).data).toMatchObject({ reason: null, metadata: null });
    const broken = buildRefundEnvelope(refundEventFacts("refund.failed", { metadataJson: "[1," }));
    expect(parse(broken.body).data.metadata).toBeNull();
    expect(broken.warning.metadataUnreadable).toBe(true);
  });

  it("when the same facts are built twice, then the bytes are identical", () => {
    const facts = refundEventFacts("refund.failed");
    expect(buildRefundEnvelope(facts).body).toBe(buildRefundEnvelope(facts).body);
  });
});
