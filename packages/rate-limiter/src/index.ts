// Public surface of @gateway/rate-limiter: the budgets of docs/api/limits.md, GCRA over a shared store.
export {
  BUDGET_NAMES,
  MAX_BURST_WINDOW_MS,
  defaultRateLimitPolicy,
  validateRateLimitPolicy,
  type BudgetName,
  type RateLimit,
  type RateLimitPolicy,
} from "./rate-limit-policy.js";
export { parseRateLimitConfig } from "./parse-rate-limit-config.js";
export type { Decision } from "./decision.js";
export { rateLimitHeaders } from "./rate-limit-headers.js";
export { rateLimitKey } from "./rate-limit-key.js";
export type { GcraStore } from "./gcra-store.js";
export { InMemoryGcraStore } from "./in-memory-gcra-store.js";
export { createNatsKvGcraStore, DEFAULT_RATE_LIMIT_BUCKET, type NatsKvGcraStoreOptions } from "./nats-kv-gcra-store.js";
export { createGcraRateLimiter, type GcraRateLimiterOptions, type RateLimitCheck, type RateLimiter } from "./gcra-rate-limiter.js";
