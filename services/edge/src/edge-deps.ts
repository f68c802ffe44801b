import type { Client } from "@connectrpc/connect";
import type { Clock, LiveEventFeed, Logger, ReadinessCheck } from "@gateway/platform";
import type {
  AccountsService,
  ApiKeysService,
  AuditLogService,
  BusinessVerificationService,
  DashboardUsersService,
  ExchangeRatesService,
  RefundService,
  SessionRefundsService,
  SessionService,
  WebhookEndpointsService,
  WebhookService,
} from "@gateway/proto";
import type { RateLimiter } from "@gateway/rate-limiter";
import type { KeyRevocations } from "./auth/key-revocations.js";
import type { CheckoutPagesConfig } from "./checkout/checkout-config.js";
import type { MountableEpgSimulator } from "./checkout/epg-simulator-mount.js";

export interface EdgeAppConfig {
  /** `{errors_url}`: problem types are `<errorsUrl>/<suffix>`. */
  errorsUrl: string;
  /** Enables /admin/v1 when set. */
  adminToken?: string;
  maxBodyBytes: number;
  /**
   * How long a successful API key lookup is reused: never past the key's expiry; a revocation
   * announced through `keyRevocations` drops it at once, this bounds a missed announcement.
   */
  authCacheTtlMs: number;
  /** Hosted checkout pages (public URL, CSRF secret, form-action origins); defaults in checkout/README.md. */
  checkout?: CheckoutPagesConfig;
  /** Bounds of the `listen` event stream (tests shorten the heartbeat); defaults in routes/event-stream-routes.ts. */
  eventStream?: { heartbeatMs?: number; maxStreamsPerAccount?: number; maxBufferedBytes?: number };
}

export interface EdgeDeps {
  accounts: Client<typeof AccountsService>;
  sessions: Client<typeof SessionService>;
  logger: Logger;
  clock?: Clock;
  config: EdgeAppConfig;
  readiness?: ReadinessCheck[];
  /** docs/api/limits.md#rate-limits on /api/v1/gateway/*; absent = not limited (GATEWAY_RATE_LIMITS=off). */
  rateLimiter?: RateLimiter;
  /** Embedded mode: the EPG simulator served at /epg/* (raw request, before body parsing). */
  epgSimulator?: MountableEpgSimulator;
  /** Delivery history (4.7, 4.8) and the admin webhook routes; absent = those routes are not served. */
  webhooks?: Client<typeof WebhookService>;
  /** Revocations shared by every edge replica (NATS in distributed mode); default: this process only. */
  keyRevocations?: KeyRevocations;
  /** Dashboard users (accounts' DashboardUsersService): the admin invitation routes; absent = not served. */
  dashboardUsers?: Client<typeof DashboardUsersService>;
  /** Refunds (4.5) and the admin manual-refund routes; absent = those routes are not served. */
  refunds?: Client<typeof RefundService>;
  /** Test-mode events for `listen` (in-process in embedded mode, core NATS when distributed); absent = 503. */
  liveEvents?: LiveEventFeed;
  /** The merchant's own exchange rates (dashboard currency settings); absent = not served. */
  exchangeRates?: Client<typeof ExchangeRatesService>;
  /** One session's refunds (dashboard session detail); absent = not served. */
  sessionRefunds?: Client<typeof SessionRefundsService>;
  /** The dashboard's keys page (accounts' ApiKeysService); absent = not served. */
  apiKeys?: Client<typeof ApiKeysService>;
  /** Business verification: the dashboard's form and the admin decision routes; absent = not served. */
  businessVerification?: Client<typeof BusinessVerificationService>;
  /** The dashboard's audit log (accounts' AuditLogService); absent = actions are not recorded, no page. */
  auditLog?: Client<typeof AuditLogService>;
  /** The dashboard's webhooks page (the webhooks service's WebhookEndpointsService); absent = not served. */
  webhookEndpoints?: Client<typeof WebhookEndpointsService>;
}
