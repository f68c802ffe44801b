import { create } from "@bufbuild/protobuf";
import { GatewayError, MAX_METADATA_BYTES, topLevelMemberTexts } from "@gateway/platform";
import {
  type AccountScope,
  type CreateSessionRequest,
  CreateSessionRequestSchema,
  LineItemSchema,
} from "@gateway/proto";
import type { CreateSessionBody } from "../api/schemas/sessions.js";

/**
 * Maps a create body that its route schema (api/schemas/sessions.ts) already accepted to
 * CreateSessionRequest. The shape is settled here, once; the sessions service judges meaning
 * (lengths, formats, amounts in the currency, exchange rates). `metadata` travels as the exact
 * JSON text the merchant sent (`rawText` is the whole body's text), so it must fit its limit.
 */
export function mapCreateSessionBody(
  body: CreateSessionBody,
  rawText: string,
  scope: AccountScope,
): CreateSessionRequest {
  const request = create(CreateSessionRequestSchema, {
    scope,
    merchantReference: body.merchant_reference,
    amount: body.amount,
    items: (body.items ?? []).map((item) =>
      create(LineItemSchema, {
        name: item.name,
        quantity: item.quantity,
        unitPrice: item.unit_price,
        ...(item.description !== undefined ? { description: item.description } : {}),
      }),
    ),
  });
  const optionalText = {
    currency: body.currency,
    orderId: body.order_id,
    description: body.description,
    buyerFirstName: body.buyer_first_name,
    buyerLastName: body.buyer_last_name,
    buyerEmail: body.buyer_email,
    buyerPhone: body.buyer_phone,
    returnUrl: body.return_url,
    cancelUrl: body.cancel_url,
    webhookUrl: body.webhook_url,
  } as const;
  for (const [name, value] of Object.entries(optionalText))
    if (value !== undefined) request[name as keyof typeof optionalText] = value;
  if (body.max_attempts !== undefined) request.maxAttempts = body.max_attempts;
  if (body.metadata !== undefined) request.metadataJson = rawMetadata(rawText);
  return request;
}

/** The metadata member's exact text; its size is checked before anything reads further. */
export function rawMetadata(rawText: string): string {
  const raw = topLevelMemberTexts(rawText).get("metadata");
  // The schema accepted a metadata object, so its text is there.
  if (raw === undefined) throw new Error("metadata member not found in the body's text");
  if (Buffer.byteLength(raw, "utf8") > MAX_METADATA_BYTES) {
    throw GatewayError.validation([
      {
        field: "metadata",
        code: "invalid",
        message: `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON.`,
      },
    ]);
  }
  return raw;
}
