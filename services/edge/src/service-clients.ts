import { type Client, createClient, type Transport } from "@connectrpc/connect";
import { type ReadinessCheck, type ServiceAuthKeys, serviceTransport } from "@gateway/platform";
import {
  AccountsService,
  ApiKeysService,
  AuditLogService,
  BusinessVerificationService,
  DashboardUsersService,
  ExchangeRatesService,
  Health,
  HealthCheckResponse_ServingStatus,
  RefundService,
  SessionRefundsService,
  SessionService,
  WebhookEndpointsService,
  WebhookService,
} from "@gateway/proto";

/**
 * A call that gets no answer within this time fails with DEADLINE_EXCEEDED, which the edge
 * answers as 503 service-unavailable (retryable) instead of holding the merchant's request.
 */
const RPC_TIMEOUT_MS = 15_000;

export interface ServiceClients {
  accounts: Client<typeof AccountsService>;
  /** Accounts' dashboard users, over the same connection as `accounts`. */
  dashboardUsers: Client<typeof DashboardUsersService>;
  /** Accounts' merchant-set exchange rates (dashboard currency settings), same connection. */
  exchangeRates: Client<typeof ExchangeRatesService>;
  /** Accounts' dashboard keys page and business verification, same connection. */
  apiKeys: Client<typeof ApiKeysService>;
  businessVerification: Client<typeof BusinessVerificationService>;
  auditLog: Client<typeof AuditLogService>;
  sessions: Client<typeof SessionService>;
  /**
   * Present when a webhooks address is given. Not a readiness check: without it only the
   * delivery-history and admin webhook routes fail (503), payments go on.
   */
  webhooks?: Client<typeof WebhookService>;
  /** The dashboard's webhooks page, over the webhooks connection. */
  webhookEndpoints?: Client<typeof WebhookEndpointsService>;
  /** Present when a refunds address is given; like webhooks, not a readiness check. */
  refunds?: Client<typeof RefundService>;
  /** One session's refunds (dashboard session detail), over the refunds connection. */
  sessionRefunds?: Client<typeof SessionRefundsService>;
  /** The standard gRPC health Check of each dependency, for /readyz. */
  readiness: ReadinessCheck[];
}

/**
 * Clients of the services the edge calls (distributed mode), over `serviceTransport`: the Connect
 * protocol over a pool of HTTP/1.1 connections per service; the tracing interceptor carries the
 * trace context to the services, and every call carries a service token addressed to its target
 * (GATEWAY_SERVICE_AUTH_KEYS).
 */
export function createServiceClients(config: {
  accountsUrl: string;
  sessionsUrl: string;
  webhooksUrl?: string;
  refundsUrl?: string;
  serviceAuthKeys: ServiceAuthKeys;
}): ServiceClients {
  const transport = (
    baseUrl: string,
    audience: "accounts" | "sessions" | "webhooks" | "refunds",
  ): Transport =>
    serviceTransport(baseUrl, audience, config.serviceAuthKeys, { defaultTimeoutMs: RPC_TIMEOUT_MS });
  const accountsTransport = transport(config.accountsUrl, "accounts");
  const sessionsTransport = transport(config.sessionsUrl, "sessions");
  return {
    accounts: createClient(AccountsService, accountsTransport),
    dashboardUsers: createClient(DashboardUsersService, accountsTransport),
    exchangeRates: createClient(ExchangeRatesService, accountsTransport),
    apiKeys: createClient(ApiKeysService, accountsTransport),
    businessVerification: createClient(BusinessVerificationService, accountsTransport),
    auditLog: createClient(AuditLogService, accountsTransport),
    sessions: createClient(SessionService, sessionsTransport),
    ...(config.webhooksUrl ? webhooksClients(transport(config.webhooksUrl, "webhooks")) : {}),
    ...(config.refundsUrl ? refundsClients(transport(config.refundsUrl, "refunds")) : {}),
    readiness: [healthCheck("accounts", accountsTransport), healthCheck("sessions", sessionsTransport)],
  };
}

function webhooksClients(
  webhooksTransport: Transport,
): Pick<ServiceClients, "webhooks" | "webhookEndpoints"> {
  return {
    webhooks: createClient(WebhookService, webhooksTransport),
    webhookEndpoints: createClient(WebhookEndpointsService, webhooksTransport),
  };
}

function refundsClients(refundsTransport: Transport): Pick<ServiceClients, "refunds" | "sessionRefunds"> {
  return {
    refunds: createClient(RefundService, refundsTransport),
    sessionRefunds: createClient(SessionRefundsService, refundsTransport),
  };
}

function healthCheck(name: string, transport: Transport): ReadinessCheck {
  const health = createClient(Health, transport);
  return {
    name,
    async check() {
      const { status } = await health.check({ service: "" }, { timeoutMs: 2_000 });
      if (status !== HealthCheckResponse_ServingStatus.SERVING) {
        throw new Error(`${name} reports ${HealthCheckResponse_ServingStatus[status]}`);
      }
    },
  };
}
