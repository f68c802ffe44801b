import { describe, expect, it } from "vitest";
import { buildEnvelope } from "../../src/domain/envelope.js";
import { eventFacts, METADATA } from "../support/fixtures.js";

const SESSION_FIELDS = [
  "id",
  "order_number",
  "merchant_reference",
  "order_id",
  "amount",
  "currency",
  "description",
  "status",
  "buyer",
  "items",
  "metadata",
];

function parse(body: string) {
  return JSON.parse(body) as {
    id: string;
    event: string;
    created_at: string;
    sequence: number;
    data: Record<string, unknown>;
  };
}

describe("webhook envelope (spec 6.2)", () => {
  it("when any event is built, then the top level is id, event, created_at, sequence and data, in that order", () => {
    const facts = eventFacts("session.succeeded", { sequence: 3 });
    const envelope = parse(buildEnvelope(facts).body);
    expect(Object.keys(envelope)).toEqual(["id", "event", "created_at", "sequence", "data"]);
    expect(envelope.id).toBe(facts.eventId);
    expect(envelope.id).toMatch(/^evt_/);
    expect(envelope.event).toBe("session.succeeded");
    expect(envelope.created_at).toBe("2026-01-01T12:00:00.000Z");
    expect(envelope.sequence).toBe(3);
  });

  it("when session.succeeded is built, then data has the session fields, paid_at and payment", () => {
    const facts = eventFacts("session.succeeded");
    const { data } = parse(buildEnvelope(facts).body);
    expect(Object.keys(data)).toEqual([...SESSION_FIELDS, "paid_at", "payment"]);
    expect(data).toMatchObject({
      id: facts.session.id,
      order_number: "GW-ABC123",
      merchant_reference: "order-42",
      order_id: "A-42",
      amount: "34.000",
      currency: "TND",
      description: "Two mugs",
      status: "SUCCEEDED",
      buyer: {
        first_name: "Émile",
        last_name: "بن علي",
        email: "emile@example.tn",
        phone: "+216 71 000 000",
      },
      items: [{ name: "Mug", quantity: 2, unit_price: "5.00", description: "Blue" }],
      paid_at: "2026-01-01T12:00:00.000Z",
      payment: {
        method: "card",
        card_brand: "visa",
        card_last_four: "4242",
        card_country: "TN",
        fee_amount: "0.850",
        net_amount: "33.150",
      },
    });
    expect(Object.keys(data.payment as object)).toEqual([
      "method",
      "card_brand",
      "card_last_four",
      "card_country",
      "fee_amount",
      "net_amount",
    ]);
    expect(Object.keys(data.buyer as object)).toEqual(["first_name", "last_name", "email", "phone"]);
  });

  it("when session.failed is built, then data adds last_failure_code, last_failure_message, attempts_count and can_retry", () => {
    const { data } = parse(buildEnvelope(eventFacts("session.failed")).body);
    expect(Object.keys(data)).toEqual([
      ...SESSION_FIELDS,
      "last_failure_code",
      "last_failure_message",
      "attempts_count",
      "can_retry",
    ]);
    expect(data).toMatchObject({
      last_failure_code: "card_declined",
      last_failure_message: "The card was declined.",
      attempts_count: 1,
      can_retry: true,
    });
  });

  it("when session.expired is built, then data adds expired_at", () => {
    const { data } = parse(buildEnvelope(eventFacts("session.expired")).body);
    expect(Object.keys(data)).toEqual([...SESSION_FIELDS, "expired_at"]);
    expect(data.expired_at).toBe("2026-01-01T12:00:00.000Z");
    expect(data.status).toBe("EXPIRED");
  });

  it("when checkout.session.expired is built, then data adds checkout_expired_at and session_still_payable", () => {
    const { data } = parse(buildEnvelope(eventFacts("checkout.session.expired")).body);
    expect(Object.keys(data)).toEqual([...SESSION_FIELDS, "checkout_expired_at", "session_still_payable"]);
    expect(data).toMatchObject({
      checkout_expired_at: "2026-01-01T12:00:00.000Z",
      session_still_payable: true,
    });
  });

  it("when session.late_payment_returned is built, then data adds late_payment with the returned payment's figures", () => {
    const { data } = parse(buildEnvelope(eventFacts("session.late_payment_returned")).body);
    expect(Object.keys(data)).toEqual([...SESSION_FIELDS, "late_payment"]);
    expect(data.late_payment).toEqual({
      attempt_id: "pa_late01",
      amount: "34.000",
      currency: "TND",
      card_brand: "mastercard",
      card_last_four: "5454",
      approved_at: "2026-01-01T11:59:00.000Z",
      returned_at: "2026-01-01T12:00:00.000Z",
      method: "reversal",
      reason: "session_expired",
    });
    expect(Object.keys(data.late_payment as object)).toEqual([
      "attempt_id",
      "amount",
      "currency",
      "card_brand",
      "card_last_four",
      "approved_at",
      "returned_at",
      "method",
      "reason",
    ]);
  });

  it("when a late payment's card and times are unknown, then they are null", () => {
    const facts = eventFacts("session.late_payment_returned");
    facts.latePayment = {
      attemptId: "pa_x",
      amount: "1.000",
      currency: "TND",
      method: "refund",
      reason: "already_paid",
    };
    expect(parse(buildEnvelope(facts).body).data.late_payment).toMatchObject({
      card_brand: null,
      card_last_four: null,
      approved_at: null,
      returned_at: null,
    });
  });

  it("when a checkout link expires on a session that can no longer be paid, then session_still_payable is false", () => {
    const facts = eventFacts("checkout.session.expired");
    facts.session.status = "CANCELED";
    expect(parse(buildEnvelope(facts).body).data.session_still_payable).toBe(false);
  });

  it("when the metadata holds keys with dots and dollars, nested arrays and 1.50, then its stored text is spliced byte for byte", () => {
    const { body, warning } = buildEnvelope(eventFacts("session.failed"));
    expect(body).toContain(`"metadata":${METADATA}`);
    expect(warning.metadataUnreadable).toBe(false);
    // JSON.parse would turn 1.50 into 1.5: the raw text is what must go out.
    expect(body).toContain('"n":1.50');
  });

  it("when amounts are built, then they are decimal strings, never numbers", () => {
    const { body } = buildEnvelope(eventFacts("session.succeeded"));
    expect(body).toContain('"amount":"34.000"');
    expect(body).toContain('"fee_amount":"0.850"');
    expect(body).toContain('"unit_price":"5.00"');
  });

  it("when optional session fields are absent, then they are null and metadata is null", () => {
    const facts = eventFacts("session.expired", { metadataJson: "" });
    facts.session.orderId = undefined;
    facts.session.description = undefined;
    facts.session.buyer = {};
    const { data } = parse(buildEnvelope(facts).body);
    expect(data).toMatchObject({
      order_id: null,
      description: null,
      metadata: null,
      buyer: { first_name: null, last_name: null, email: null, phone: null },
    });
  });

  it("when the stored metadata is not a JSON object, then the body stays valid JSON with metadata null and a warning", () => {
    const { body, warning } = buildEnvelope(eventFacts("session.expired", { metadataJson: '{"broken": ' }));
    expect(parse(body).data.metadata).toBeNull();
    expect(warning.metadataUnreadable).toBe(true);
  });

  it("when the same facts are built twice, then the bytes are identical", () => {
    const facts = eventFacts("session.succeeded");
    expect(buildEnvelope(facts).body).toBe(buildEnvelope(facts).body);
  });
});
