import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { keyOfValue } from "@gateway/platform";
import {
  DeliverySchema,
  type Delivery as ProtoDelivery,
  DeliveryStatus as ProtoDeliveryStatus,
} from "@gateway/proto";
import type { Delivery, DeliveryStatus } from "../domain/delivery.js";

export const STATUS_TO_PROTO: { readonly [S in DeliveryStatus]: ProtoDeliveryStatus } = {
  PENDING: ProtoDeliveryStatus.PENDING,
  SUCCEEDED: ProtoDeliveryStatus.SUCCEEDED,
  FAILED: ProtoDeliveryStatus.FAILED,
};

/** The filter status, or undefined for UNSPECIFIED (no filter). */
export function statusFromProto(status: ProtoDeliveryStatus): DeliveryStatus | undefined {
  return keyOfValue(STATUS_TO_PROTO, status);
}

/** The wire form of a delivery record (docs/api/webhooks.md#the-delivery-record); unset optional figures stay unset. */
export function deliveryToProto(d: Delivery): ProtoDelivery {
  return create(DeliverySchema, {
    id: d.id,
    sessionId: d.sessionId,
    event: d.event,
    eventId: d.eventId,
    url: d.url,
    attemptNumber: d.attemptNumber,
    status: STATUS_TO_PROTO[d.status],
    ...(d.httpStatusCode !== undefined ? { httpStatusCode: d.httpStatusCode } : {}),
    ...(d.responseTimeMs !== undefined ? { responseTimeMs: d.responseTimeMs } : {}),
    errorMessage: d.errorMessage ?? "",
    ...(d.nextRetryAt ? { nextRetryAt: timestampFromDate(d.nextRetryAt) } : {}),
    createdAt: timestampFromDate(d.createdAt),
  });
}
