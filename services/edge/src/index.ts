// Public surface of the edge, used by the launcher (embedded and distributed) and tests.
export { createEdgeApp } from "./app.js";
export type { EdgeDeps, EdgeAppConfig } from "./edge-deps.js";
export { edgeConfigSpec, readEdgeConfig, type EdgeConfig } from "./config.js";
export { createServiceClients, type ServiceClients } from "./service-clients.js";
export { parseCsrfSecret, parseOriginList, type CheckoutPagesConfig } from "./checkout/checkout-config.js";
export type { MountableEpgSimulator } from "./checkout/epg-simulator-mount.js";
export { createEdgeRateLimiting, type EdgeRateLimiting, type EdgeRateLimitingOptions } from "./rate-limit/create-edge-rate-limiting.js";
export { requireJsonObjectBody } from "./http/json-body.js";
