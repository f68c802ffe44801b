// Public surface of the edge, used by the launcher (embedded and distributed) and tests.
export { createEdgeApp } from "./app.js";
export { type CheckoutPagesConfig, parseCsrfSecret, parseOriginList } from "./checkout/checkout-config.js";
export type { MountableEpgSimulator } from "./checkout/epg-simulator-mount.js";
export { type EdgeConfig, edgeConfigSpec, readEdgeConfig } from "./config.js";
export type { EdgeAppConfig, EdgeDeps } from "./edge-deps.js";
export { requireJsonObjectBody } from "./http/json-body.js";
export {
  createEdgeRateLimiting,
  type EdgeRateLimiting,
  type EdgeRateLimitingOptions,
} from "./rate-limit/create-edge-rate-limiting.js";
export { createServiceClients, type ServiceClients } from "./service-clients.js";
