import { timestampDate } from "@bufbuild/protobuf/wkt";
import { scopeFromProto } from "@gateway/platform";
import type { CreateSessionRequest, ListSessionsRequest } from "@gateway/proto";
import type { ListSessionsQuery } from "../app/list-sessions.js";
import type { CreateSessionInput } from "../domain/validation/create-session-input.js";
import { statusFromProto } from "./session-to-proto.js";

export function createInputFromProto(req: CreateSessionRequest): CreateSessionInput {
  return {
    scope: scopeFromProto(req.scope),
    merchantReference: req.merchantReference,
    amount: req.amount,
    currency: req.currency,
    orderId: req.orderId,
    description: req.description,
    // proto3 line items have no presence: an empty item description means none.
    items: req.items.map((item) => ({
      name: item.name,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      ...(item.description !== "" ? { description: item.description } : {}),
    })),
    buyerFirstName: req.buyerFirstName,
    buyerLastName: req.buyerLastName,
    buyerEmail: req.buyerEmail,
    buyerPhone: req.buyerPhone,
    metadataJson: req.metadataJson,
    returnUrl: req.returnUrl,
    cancelUrl: req.cancelUrl,
    webhookUrl: req.webhookUrl,
    maxAttempts: req.maxAttempts,
  };
}

export function listQueryFromProto(req: ListSessionsRequest): ListSessionsQuery {
  const status = statusFromProto(req.status);
  return {
    filter: {
      ...(status !== undefined ? { status } : {}),
      ...(req.createdGte ? { createdGte: timestampDate(req.createdGte) } : {}),
      ...(req.createdLte ? { createdLte: timestampDate(req.createdLte) } : {}),
      ...(req.merchantReference !== "" ? { merchantReference: req.merchantReference } : {}),
    },
    limit: req.page?.limit ?? 0,
    ...(req.page && req.page.startingAfter !== "" ? { startingAfter: req.page.startingAfter } : {}),
  };
}
