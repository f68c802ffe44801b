import { parseCsrfSecret } from "@gateway/edge";
import {
  acquirerTimeoutField,
  type ConfigSpec,
  managementPortField,
  parse,
  shutdownConfigSpec,
} from "@gateway/platform";
import { parseRateLimitConfig } from "@gateway/rate-limiter";
import { webhookDeliveryConfigSpec } from "@gateway/webhooks";

/**
 * Configuration of `npm start` (embedded mode): one process; in-memory stores, or MongoDB (and
 * NATS JetStream) when their URLs are given.
 */
export const embeddedConfigSpec = {
  mongodbUrl: {
    env: "MONGODB_URL",
    description:
      "MongoDB: keeps every service's data (one database per service) across restarts; unset = in memory, lost at exit",
    optional: true,
    secret: true,
    parse: parse.string,
  },
  mongodbDatabasePrefix: {
    env: "MONGODB_DATABASE_PREFIX",
    description: "Prefix of the databases (<prefix>_accounts, <prefix>_sessions, …)",
    default: "gateway",
    parse: parse.string,
  },
  natsUrl: {
    env: "NATS_URL",
    description:
      "NATS JetStream for events (with MONGODB_URL); unset = an in-process bus fed from the outboxes in MongoDB",
    optional: true,
    secret: true,
    parse: parse.string,
  },
  secretsKey: {
    env: "GATEWAY_SECRETS_KEY",
    description:
      "Key encrypting stored terminal passwords and webhook secrets (base64 of 32 bytes); required with MONGODB_URL",
    optional: true,
    secret: true,
    parse: parse.string,
  },
  port: { env: "PORT", description: "Port to listen on", default: "8080", parse: parse.port },
  host: { env: "HOST", description: "Interface to listen on", default: "127.0.0.1", parse: parse.string },
  // One management listener for the whole process: every service shares one metrics registry.
  managementPort: managementPortField(9460),
  publicUrl: {
    env: "GATEWAY_PUBLIC_URL",
    description:
      "Public base URL (checkout links, problem type URIs, the demo terminal); unset: http://localhost:<PORT> (http://<HOST>:<PORT> for a HOST that is not loopback or wildcard)",
    optional: true,
    parse: parse.url,
  },
  errorsUrl: {
    env: "GATEWAY_ERRORS_URL",
    description: "Base of problem type URIs",
    optional: true,
    parse: parse.url,
  },
  adminToken: {
    env: "GATEWAY_ADMIN_TOKEN",
    description: "Enables the admin API",
    optional: true,
    secret: true,
    parse: parse.string,
  },
  demo: { env: "GATEWAY_DEMO", description: "Seed the demo merchant", default: "1", parse: parse.boolean },
  demoTestKey: {
    env: "GATEWAY_DEMO_TEST_KEY",
    description: "Demo merchant's test key",
    optional: true,
    secret: true,
    parse: parse.string,
  },
  sessionLifetimeMs: {
    env: "GATEWAY_SESSION_LIFETIME",
    description: "Session lifetime",
    default: "24h",
    parse: parse.duration,
  },
  checkoutLinkLifetimeMs: {
    env: "GATEWAY_CHECKOUT_LINK_LIFETIME",
    description: "Checkout link lifetime",
    default: "30m",
    parse: parse.duration,
  },
  checkoutLinkLimit: {
    env: "GATEWAY_CHECKOUT_LINK_LIMIT",
    description: "Most unexpired checkout links per session",
    default: "5",
    parse: parse.int,
  },
  sweepIntervalMs: {
    env: "GATEWAY_SWEEP_INTERVAL",
    description:
      "Pause between looks for sessions to expire and attempts to reconcile (up to 5x this while nothing is due)",
    default: "1s",
    parse: parse.duration,
  },
  reconcileIntervalMs: {
    env: "GATEWAY_RECONCILE_INTERVAL",
    description: "Pause between re-checks of an unsettled attempt with the acquirer",
    default: "1m",
    parse: parse.duration,
  },
  acquirerTimeoutMs: acquirerTimeoutField,
  csrfSecret: {
    env: "GATEWAY_CSRF_SECRET",
    description: "Key of the checkout pages' CSRF tokens (random per start when unset)",
    optional: true,
    secret: true,
    parse: parseCsrfSecret,
  },
  maxBodyBytes: {
    env: "GATEWAY_MAX_BODY_BYTES",
    description: "Largest accepted request body",
    default: "262144",
    parse: parse.int,
  },
  authCacheTtlMs: {
    env: "GATEWAY_AUTH_CACHE_TTL",
    description: "How long an authenticated key is cached",
    default: "5s",
    parse: parse.duration,
  },
  rateLimits: {
    env: "GATEWAY_RATE_LIMITS",
    description:
      "Rate limits per merchant account and mode: unset = the spec's, `off` = none, or overrides like `live.account=50,test.create=5/10`",
    optional: true,
    parse: parseRateLimitConfig,
  },
  memoryRetentionMs: {
    env: "GATEWAY_MEMORY_RETENTION",
    description:
      "Embedded mode keeps data in memory: sessions, deliveries, refunds and events older than this leave it (at least the session lifetime plus the whole webhook retry schedule)",
    default: "72h",
    parse: parse.duration,
  },
  ...webhookDeliveryConfigSpec,
  // Embedded mode is the development configuration: local webhook receivers are allowed.
  allowPrivate: { ...webhookDeliveryConfigSpec.allowPrivate, default: "true" },
  logLevel: {
    env: "LOG_LEVEL",
    description: "pino log level",
    default: "info",
    parse: parse.oneOf("fatal", "error", "warn", "info", "debug", "trace", "silent"),
  },
  ...shutdownConfigSpec,
} satisfies ConfigSpec;
