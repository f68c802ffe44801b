// Public surface of @gateway/rate-limiter: the budgets of docs/api/limits.md, GCRA over a shared store.

export type { Decision } from "./decision.js";
export {
  createGcraRateLimiter,
  type GcraRateLimiterOptions,
  type RateLimitCheck,
  type RateLimiter,
} from "./gcra-rate-limiter.js";
export type { GcraStore } from "./gcra-store.js";
export { InMemoryGcraStore } from "./in-memory-gcra-store.js";
export {
  createNatsKvGcraStore,
  DEFAULT_RATE_LIMIT_BUCKET,
  type NatsKvGcraStoreOptions,
} from "./nats-kv-gcra-store.js";
export { parseRateLimitConfig } from "./parse-rate-limit-config.js";
export { rateLimitHeaders } from "./rate-limit-headers.js";
export { rateLimitKey } from "./rate-limit-key.js";
export {
  BUDGET_NAMES,
  type BudgetName,
  defaultRateLimitPolicy,
  MAX_BURST_WINDOW_MS,
  type RateLimit,
  type RateLimitPolicy,
  validateRateLimitPolicy,
} from "./rate-limit-policy.js";
