// Outbound webhook delivery over HTTP(S), with the SSRF guard.
export {
  type DeliveryOutcome,
  type DeliveryRequest,
  type HttpDeliverer,
  type HttpDelivererOptions,
  USER_AGENT,
  createHttpDeliverer,
} from "./http-delivery.js";
export { type AddressPolicy, assertAddressPolicy, isForbiddenAddress } from "./address-policy.js";
export { ForbiddenAddressError, type ResolveAll, guardedLookup } from "./ssrf-lookup.js";
export { parseRetryAfter, parseHttpDate } from "./retry-after.js";
export { type WebhookHeaderInput, buildWebhookHeaders } from "./signed-headers.js";
