import { timestampDate } from "@bufbuild/protobuf/wkt";
import { GatewayError } from "@gateway/platform";
import type { AccountScope as ProtoScope, BulkResendDeliveriesRequest, ListDeliveriesRequest } from "@gateway/proto";
import type { ListDeliveriesQuery } from "../app/list-deliveries.js";
import type { BulkResendFilter } from "../app/resend-deliveries.js";
import type { AccountScope } from "../domain/account-scope.js";
import { statusFromProto } from "./delivery-to-proto.js";

/** The scope the edge derived from the API key (or the admin path). A call without one is refused. */
export function scopeFromProto(scope: ProtoScope | undefined): AccountScope {
  if (!scope || scope.merchantId === "") throw new GatewayError("UNAUTHORIZED", "The call does not name a merchant account.");
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

export function listQueryFromProto(req: ListDeliveriesRequest): ListDeliveriesQuery {
  const status = statusFromProto(req.status);
  return {
    filter: {
      ...(status !== undefined ? { status } : {}),
      ...(req.event !== "" ? { event: req.event } : {}),
      ...(req.sessionId !== "" ? { sessionId: req.sessionId } : {}),
      ...(req.eventId !== "" ? { eventId: req.eventId } : {}),
    },
    limit: req.page?.limit ?? 0,
    ...(req.page && req.page.startingAfter !== "" ? { startingAfter: req.page.startingAfter } : {}),
  };
}

export function bulkFilterFromProto(req: BulkResendDeliveriesRequest): BulkResendFilter {
  const status = statusFromProto(req.status);
  return {
    ...(req.createdGte ? { createdGte: timestampDate(req.createdGte) } : {}),
    ...(req.createdLte ? { createdLte: timestampDate(req.createdLte) } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(req.event !== "" ? { event: req.event } : {}),
  };
}
