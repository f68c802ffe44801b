import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { RefundEventSchema, RefundSchema } from "@gateway/proto";
import type { RefundEventEncoder } from "../app/ports.js";
import { refundToProto } from "./refund-to-proto.js";

/**
 * The wire form of a refund's event: gateway.events.v1.RefundEvent, the refund as the API
 * returns it (amount as a decimal string) plus the session facts its webhook needs.
 */
export const protoRefundEventEncoder: RefundEventEncoder = {
  encode(event, refund) {
    return toBinary(
      RefundEventSchema,
      create(RefundEventSchema, {
        eventId: event.eventId,
        eventType: event.type,
        occurredAt: timestampFromDate(event.occurredAt),
        refund: create(RefundSchema, refundToProto(refund)),
        sessionMerchantReference: refund.sessionMerchantReference,
        sessionOrderNumber: refund.sessionOrderNumber,
        sessionWebhookUrl: refund.sessionWebhookUrl,
      }),
    );
  },
};
