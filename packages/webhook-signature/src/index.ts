// Public surface of @gateway/webhook-signature: sign (the gateway) and verify (merchants) the
// gateway's webhooks. Two schemes over the same secret and the same body bytes:
//   X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>", key = whole secret>
//   webhook-id / webhook-timestamp / webhook-signature: Standard Webhooks (standardwebhooks.com),
//   also through the `Webhook` class that the standardwebhooks and svix packages offer
// Only node:crypto is used, so merchants can depend on it or copy it.
export type { Body } from "./bytes.js";
export type { HeaderBag } from "./read-header.js";
export { generateWebhookSecret, SECRET_PREFIX } from "./secret.js";
export { buildSignatureHeader, signPayload, standardWebhookSignature } from "./sign.js";
export {
  DEFAULT_TOLERANCE_SEC,
  type VerifyFailure,
  type VerifyOptions,
  type VerifyResult,
  verifyStandardWebhook,
  verifyWebhook,
} from "./verify.js";
export {
  type GatewayWebhookEvent,
  Webhook,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from "./webhook.js";
