import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type RefundEvent, RefundEventSchema, RefundStatus, RefundType } from "@gateway/proto";
import { isRefundWebhookEventType } from "../../domain/event-types.js";
import type { RefundEventFacts } from "../../domain/webhook-event.js";
import type { DecodedEvent } from "./session-event-from-proto.js";

const text = (value: string): string | undefined => (value === "" ? undefined : value);

/** What each refund event says the refund's status is; anything else is a producer bug. */
const STATUS_OF_EVENT = {
  "refund.succeeded": RefundStatus.SUCCEEDED,
  "refund.failed": RefundStatus.FAILED,
} as const;

/** Turns a `gateway.events.v1.RefundEvent` payload into the facts a webhook is built from. */
export function decodeRefundEvent(data: Uint8Array): DecodedEvent<RefundEventFacts> {
  let event: RefundEvent;
  try {
    event = fromBinary(RefundEventSchema, data);
  } catch {
    return { kind: "malformed", problem: "the payload is not a gateway.events.v1.RefundEvent" };
  }
  if (event.eventId === "") return { kind: "malformed", problem: "the event has no event_id" };
  if (!isRefundWebhookEventType(event.eventType))
    return { kind: "no_webhook", eventType: event.eventType, eventId: event.eventId };
  if (!event.occurredAt) return { kind: "malformed", problem: "the event has no occurred_at" };
  const r = event.refund;
  if (!r) return { kind: "malformed", problem: "the event has no refund" };
  if (r.id === "" || r.sessionId === "")
    return { kind: "malformed", problem: "the refund has no id or session id" };
  if (!r.scope || r.scope.merchantId === "")
    return { kind: "malformed", problem: "the refund has no account scope" };
  if (r.status !== STATUS_OF_EVENT[event.eventType])
    return {
      kind: "malformed",
      problem: `a ${event.eventType} event about a refund that is ${RefundStatus[r.status]}`,
    };
  if (r.refundType === RefundType.UNSPECIFIED)
    return { kind: "malformed", problem: "the refund has no type" };
  if (r.amount === "" || r.currency === "")
    return { kind: "malformed", problem: "the refund has no amount or currency" };
  if (!r.createdAt) return { kind: "malformed", problem: "the refund has no created_at" };
  return {
    kind: "event",
    facts: {
      eventId: event.eventId,
      eventType: event.eventType,
      occurredAt: timestampDate(event.occurredAt),
      refund: {
        id: r.id,
        sessionId: r.sessionId,
        scope: { merchantId: r.scope.merchantId, livemode: r.scope.livemode },
        type: RefundType[r.refundType],
        status: RefundStatus[r.status],
        amount: r.amount,
        currency: r.currency,
        reason: text(r.reason),
        metadataJson: text(r.metadataJson),
        automated: r.automated,
        acquirerErrorMessage: text(r.acquirerErrorMessage),
        createdAt: timestampDate(r.createdAt),
      },
      session: {
        merchantReference: event.sessionMerchantReference,
        orderNumber: event.sessionOrderNumber,
        ...(event.sessionWebhookUrl !== "" ? { webhookUrl: event.sessionWebhookUrl } : {}),
      },
    },
  };
}
