import { timestampDate } from "@bufbuild/protobuf/wkt";
import { GatewayError } from "@gateway/platform";
import type { AccountScope as ProtoScope, CreateSessionRequest, ListSessionsRequest } from "@gateway/proto";
import type { ListSessionsQuery } from "../app/list-sessions.js";
import type { AccountScope } from "../domain/session.js";
import type { CreateSessionInput } from "../domain/validation/create-session-input.js";
import { statusFromProto } from "./session-to-proto.js";

/** The scope the edge derived from the API key. A call without one is refused outright. */
export function scopeFromProto(scope: ProtoScope | undefined): AccountScope {
  if (!scope || scope.merchantId === "") {
    throw new GatewayError("UNAUTHORIZED", "The call does not name a merchant account.");
  }
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

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
    inputViolations: req.inputViolations.map(({ field, code, message }) => ({ field, code, message })),
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
