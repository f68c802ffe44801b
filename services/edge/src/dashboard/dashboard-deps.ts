import type { Client } from "@connectrpc/connect";
import type { Clock } from "@gateway/platform";
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
import type { CsrfTokens } from "../checkout/csrf.js";
import type { DashboardCsrf } from "./dashboard-csrf.js";
import type { DashboardResponder } from "./dashboard-responder.js";
import type { Section } from "./views/dashboard-layout.js";

/** The services the dashboard's pages call; optional ones hide their sections when absent. */
export interface DashboardClients {
  dashboardUsers: Client<typeof DashboardUsersService>;
  accounts: Client<typeof AccountsService>;
  sessions: Client<typeof SessionService>;
  webhooks?: Client<typeof WebhookService>;
  refunds?: Client<typeof RefundService>;
  sessionRefunds?: Client<typeof SessionRefundsService>;
  exchangeRates?: Client<typeof ExchangeRatesService>;
  apiKeys?: Client<typeof ApiKeysService>;
  businessVerification?: Client<typeof BusinessVerificationService>;
  auditLog?: Client<typeof AuditLogService>;
  webhookEndpoints?: Client<typeof WebhookEndpointsService>;
}

/** What every dashboard route registration gets. */
export interface DashboardRouteDeps {
  clients: DashboardClients;
  respond: DashboardResponder;
  /** Forms of the signed-in dashboard. */
  csrf: DashboardCsrf;
  /** Forms before sign-in (sign-in, invitation): a nonce cookie and a signed token, as the checkout's. */
  preSessionCsrf: CsrfTokens;
  secureCookies: boolean;
  clock: Clock;
  /** GATEWAY_PUBLIC_URL: invitation links point at the dashboard there. */
  publicUrl: string;
  /** The sections served (their services are wired), in navigation order. */
  sections: Section[];
  /** After a key is revoked or rolled: every edge replica drops what it cached of it. */
  onKeyChanged(keyId: string): Promise<void>;
}
