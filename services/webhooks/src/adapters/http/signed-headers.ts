import { buildSignatureHeader, standardWebhookSignature } from "@gateway/webhook-signature";

export interface WebhookHeaderInput {
  /** The event id: X-Service-Webhook-Id and webhook-id, identical across retries and resends. */
  webhookId: string;
  event: string;
  /** The exact bytes that will be sent. */
  body: Uint8Array;
  /** Current secret first, then the previous one while its rotation window lasts. */
  secrets: string[];
  /** Unix seconds of this attempt (each retry is signed again with a fresh timestamp). */
  timestamp: number;
}

/**
 * The headers of docs/api/webhooks.md#request-headers (Standard Webhooks' too), all from the same secrets and the same
 * bytes, so a receiver can verify with our helper or with any Standard Webhooks library.
 */
export function buildWebhookHeaders(input: WebhookHeaderInput): Record<string, string> {
  const { webhookId, event, body, secrets, timestamp } = input;
  return {
    "Content-Type": "application/json",
    "X-Service-Signature": buildSignatureHeader({ timestamp, body, secrets }),
    "X-Service-Webhook-Id": webhookId,
    "X-Service-Event": event,
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standardWebhookSignature({ id: webhookId, timestamp, body, secrets }),
  };
}
