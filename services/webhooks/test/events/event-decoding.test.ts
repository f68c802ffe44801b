import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  RefundEventSchema,
  RefundSchema,
  RefundStatus,
  RefundType,
  SessionEventSchema,
} from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { decodeRefundEvent } from "../../src/adapters/events/refund-event-from-proto.js";
import { decodeSessionEvent } from "../../src/adapters/events/session-event-from-proto.js";
import {
  eventFacts,
  refundEventBytes,
  refundEventFacts,
  sessionEventBytes,
  sessionEventProto,
} from "../support/fixtures.js";

describe("events read from the bus", () => {
  it("when a RefundEvent is read, then its facts come back as the refunds service published them", () => {
    for (const facts of [
      refundEventFacts("refund.succeeded", { webhookUrl: "https://shop.example/h" }),
      refundEventFacts("refund.failed"),
    ]) {
      expect(decodeRefundEvent(refundEventBytes(facts))).toEqual({ kind: "event", facts });
    }
  });

  it("when a RefundEvent's status contradicts its type, or parts are missing, then it is malformed, never a webhook", () => {
    const facts = refundEventFacts("refund.succeeded");
    const wrongStatus = { ...facts, refund: { ...facts.refund, status: "FAILED" } };
    expect(decodeRefundEvent(refundEventBytes(wrongStatus))).toMatchObject({
      kind: "malformed",
      problem: expect.stringMatching(/FAILED/),
    });
    expect(decodeRefundEvent(new Uint8Array([0xff, 0xff]))).toMatchObject({ kind: "malformed" });
    const noRefund = toBinary(
      RefundEventSchema,
      create(RefundEventSchema, {
        eventId: "evt_1",
        eventType: "refund.failed",
        occurredAt: timestampFromDate(new Date()),
      }),
    );
    expect(decodeRefundEvent(noRefund)).toEqual({ kind: "malformed", problem: "the event has no refund" });
    const noScope = toBinary(
      RefundEventSchema,
      create(RefundEventSchema, {
        eventId: "evt_2",
        eventType: "refund.failed",
        occurredAt: timestampFromDate(new Date()),
        refund: create(RefundSchema, {
          id: "re_1",
          sessionId: "ps_1",
          status: RefundStatus.FAILED,
          refundType: RefundType.FULL,
          amount: "1.000",
          currency: "TND",
        }),
      }),
    );
    expect(decodeRefundEvent(noScope)).toEqual({
      kind: "malformed",
      problem: "the refund has no account scope",
    });
  });

  it("when a refund event type has no webhook, then it is skipped", () => {
    const bytes = toBinary(
      RefundEventSchema,
      create(RefundEventSchema, { eventId: "evt_3", eventType: "refund.pending" }),
    );
    expect(decodeRefundEvent(bytes)).toEqual({
      kind: "no_webhook",
      eventType: "refund.pending",
      eventId: "evt_3",
    });
  });

  it("when a session.late_payment_returned event is read, then its late payment comes with it", () => {
    const facts = eventFacts("session.late_payment_returned");
    expect(decodeSessionEvent(sessionEventBytes(facts))).toEqual({ kind: "event", facts });
  });

  it("when a session.late_payment_returned event has no late_payment, then it is malformed", () => {
    const facts = eventFacts("session.late_payment_returned");
    const proto = sessionEventProto(facts);
    proto.latePayment = undefined;
    expect(decodeSessionEvent(toBinary(SessionEventSchema, proto))).toEqual({
      kind: "malformed",
      problem: "a session.late_payment_returned event has no late_payment",
    });
  });
});
