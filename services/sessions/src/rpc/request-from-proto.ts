import { timestampDate } from "@bufbuild/protobuf/wkt";
import { parseAmount, SETTLEMENT_CURRENCY } from "@gateway/money";
import { GatewayError, scopeFromProto } from "@gateway/platform";
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
      ...(req.orderNumber !== "" ? { orderNumber: req.orderNumber } : {}),
      ...(req.amount !== "" ? { amountMinor: parseAmountFilter(req.amount) } : {}),
    },
    limit: req.page?.limit ?? 0,
    ...(req.page && req.page.startingAfter !== "" ? { startingAfter: req.page.startingAfter } : {}),
  };
}

/**
 * The amount filter, read like a create's amount (exact decimal string, the settlement
 * currency's 3 decimals): a list that silently ignored "12.5" would look like "no such payment".
 */
function parseAmountFilter(text: string): bigint {
  const parsed = parseAmount(text, SETTLEMENT_CURRENCY);
  if (!parsed.ok)
    throw GatewayError.validation([{ field: "amount", code: parsed.code, message: parsed.message }]);
  return parsed.minor;
}
