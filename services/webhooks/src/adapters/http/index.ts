// Outbound webhook delivery over HTTP(S), with the SSRF guard.

export { type AddressPolicy, assertAddressPolicy, isForbiddenAddress } from "./address-policy.js";
export {
  createHttpDeliverer,
  type DeliveryOutcome,
  type DeliveryRequest,
  type HttpDeliverer,
  type HttpDelivererOptions,
  USER_AGENT,
} from "./http-delivery.js";
export { parseHttpDate, parseRetryAfter } from "./retry-after.js";
export { buildWebhookHeaders, type WebhookHeaderInput } from "./signed-headers.js";
export { ForbiddenAddressError, guardedLookup, type ResolveAll } from "./ssrf-lookup.js";
