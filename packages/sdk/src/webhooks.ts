import { type GatewayWebhookEvent, type HeaderBag, Webhook } from "@gateway/webhook-signature";
import type { Session } from "./types.js";

/** Verifies the gateway's webhooks (docs/api/webhooks.md#signatures). */
export const webhooks = {
  /**
   * Checks the Standard Webhooks signature of a delivery and returns its parsed event; throws
   * `WebhookVerificationError` (its `reason` says why) when the secret, body or timestamp do not
   * match. `rawBody` must be the bytes as received, before any JSON parsing. `secret` may be a list
   * while a secret is being rotated.
   */
  constructEvent<Data = Session | Record<string, unknown>>(
    rawBody: string | Uint8Array,
    headers: HeaderBag,
    secret: string | string[],
    options: { toleranceSec?: number } = {},
  ): GatewayWebhookEvent<Data> {
    return new Webhook(secret, options).verify<GatewayWebhookEvent<Data>>(rawBody, headers);
  },
};
