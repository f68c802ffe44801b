import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { BulkResendDeliveriesRequest, ListDeliveriesRequest } from "@gateway/proto";
import type { ListDeliveriesQuery } from "../app/list-deliveries.js";
import type { BulkResendFilter } from "../app/resend-deliveries.js";
import { statusFromProto } from "./delivery-to-proto.js";

export function listQueryFromProto(req: ListDeliveriesRequest): ListDeliveriesQuery {
  const status = statusFromProto(req.status);
  return {
    filter: {
      ...(status !== undefined ? { status } : {}),
      ...(req.event !== "" ? { event: req.event } : {}),
      ...(req.sessionId !== "" ? { sessionId: req.sessionId } : {}),
      ...(req.eventId !== "" ? { eventId: req.eventId } : {}),
      ...(req.createdGte ? { createdGte: timestampDate(req.createdGte) } : {}),
      ...(req.createdLte ? { createdLte: timestampDate(req.createdLte) } : {}),
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
