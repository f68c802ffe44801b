// Public surface of @gateway/sdk: the typed client, its errors, the webhook verifier, the types.

export { type GatewayWebhookEvent, WebhookVerificationError } from "@gateway/webhook-signature";
export { Gateway, type GatewayOptions, type RefundOptions, SDK_VERSION } from "./client.js";
export type { components, operations, paths } from "./generated/openapi.js";
export { eachItem, type Page } from "./pages.js";
export {
  type FieldViolation,
  GatewayConnectionError,
  GatewayProblemError,
  type Problem,
} from "./problem-error.js";
export { RETRYABLE_STATUSES, type RetryListener, type RetryOptions, retryAfterMs } from "./retrying-fetch.js";
export type * from "./types.js";
export { webhooks } from "./webhooks.js";
