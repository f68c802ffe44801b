import { createClient, createRouterTransport } from "@connectrpc/connect";
import {
  createAccountsInterceptors,
  createAccountsRoutes,
  createMemoryAccountsRepositories,
} from "@gateway/accounts";
import {
  createInProcessTransport,
  createLogger,
  errorDetailInterceptor,
  ManualClock,
} from "@gateway/platform";
import {
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
import { createMemoryWebhooksStores, createWebhooksRoutes } from "@gateway/webhooks";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { createEdgeApp } from "../../src/index.js";
import { ADMIN_TOKEN, ERRORS_URL } from "../fakes/edge-test-harness.js";
import { FakeRefundsService } from "../fakes/fake-refunds-service.js";
import { SessionsUnderTest } from "../fakes/sessions-under-test.js";

export const PASSWORD = "correct horse battery staple";

export interface DashboardTestEdge {
  app: FastifyInstance;
  clock: ManualClock;
  sessions: SessionsUnderTest;
  refunds: FakeRefundsService;
  accounts: ReturnType<typeof createClient<typeof AccountsService>>;
  users: ReturnType<typeof createClient<typeof DashboardUsersService>>;
}

/**
 * The edge with the real accounts service (merchants, dashboard users, exchange rates) and the
 * real sessions service in process, and fakes of refunds and webhooks: what the dashboard's pages
 * call, as embedded mode wires it.
 */
export function createDashboardTestEdge(options: { publicUrl?: string } = {}): DashboardTestEdge {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const silent = createLogger({ service: "test", level: "silent" });
  const accountsTransport = createInProcessTransport({
    name: "accounts",
    routes: createAccountsRoutes({ repos: createMemoryAccountsRepositories(), clock, logger: silent }),
    logger: silent,
    interceptors: createAccountsInterceptors(silent),
  });
  const sessions = new SessionsUnderTest(clock, silent);
  const refunds = new FakeRefundsService(clock, (scope, id) => sessions.find(scope, id));
  // The real webhooks service on memory stores (no dispatcher: deliveries stay PENDING here).
  const webhooksTransport = createInProcessTransport({
    name: "webhooks",
    routes: createWebhooksRoutes({
      stores: createMemoryWebhooksStores(),
      clock,
      logger: silent,
      settings: { secretOverlapMs: 24 * 3600_000 },
    }),
    logger: silent,
  });
  const refundsTransport = createRouterTransport(
    (router) => {
      router.service(RefundService, refunds);
      router.service(SessionRefundsService, refunds.sessionRefundsHandlers());
    },
    { router: { interceptors: [errorDetailInterceptor("refunds.gateway")] } },
  );
  const accounts = createClient(AccountsService, accountsTransport);
  const users = createClient(DashboardUsersService, accountsTransport);
  const app = createEdgeApp({
    accounts,
    sessions: createClient(SessionService, sessions.transport()),
    dashboardUsers: users,
    exchangeRates: createClient(ExchangeRatesService, accountsTransport),
    apiKeys: createClient(ApiKeysService, accountsTransport),
    businessVerification: createClient(BusinessVerificationService, accountsTransport),
    auditLog: createClient(AuditLogService, accountsTransport),
    refunds: createClient(RefundService, refundsTransport),
    sessionRefunds: createClient(SessionRefundsService, refundsTransport),
    webhooks: createClient(WebhookService, webhooksTransport),
    webhookEndpoints: createClient(WebhookEndpointsService, webhooksTransport),
    logger: silent,
    clock,
    config: {
      errorsUrl: ERRORS_URL,
      adminToken: ADMIN_TOKEN,
      maxBodyBytes: 4096,
      authCacheTtlMs: 5000,
      checkout: {
        publicUrl: options.publicUrl ?? "http://localhost:8080",
        csrfSecret: "dashboard-test-csrf-secret-0123456789",
      },
    },
  });
  return { app, clock, sessions, refunds, accounts, users };
}

/** A browser: keeps the cookies the dashboard sets, as a real one would. */
export class Browser {
  private readonly jar = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  get cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({ method: "GET", url, headers: { cookie: this.cookieHeader, ...headers } }),
    );
  }

  async post(url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.keep(
      await this.app.inject({
        method: "POST",
        url,
        payload: new URLSearchParams(fields).toString(),
        headers: { cookie: this.cookieHeader, "content-type": "application/x-www-form-urlencoded" },
      }),
    );
  }

  /** Submits the form of `page` whose action is `action`, with its hidden fields and `fields`. */
  async submit(page: LightMyRequestResponse, action: string, fields: Record<string, string> = {}) {
    return this.post(action, { ...hiddenFields(page.body, action), ...fields });
  }

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const lines = res.headers["set-cookie"];
    for (const line of lines === undefined ? [] : Array.isArray(lines) ? lines : [lines]) {
      const [pair = "", ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (attributes.some((a) => /max-age=0/i.test(a.trim())) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
}

/** The hidden inputs of the form posting to `action`. */
export function hiddenFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  if (start === -1) throw new Error(`no form posts to ${action}`);
  const form = html.slice(start, html.indexOf("</form>", start));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = match[2]!
      .replace(/&amp;/g, "&")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  return fields;
}

/** A merchant with a dashboard user of `role` who has set PASSWORD, made as the operator does. */
export async function merchantWithUser(
  t: DashboardTestEdge,
  role: "owner" | "developer" | "viewer",
  email = `${role}-${Math.random().toString(36).slice(2, 8)}@shop.example`,
): Promise<{ merchantId: string; email: string }> {
  const { merchant } = await t.accounts.createMerchant({ name: "Dashboard Shop" });
  return { merchantId: merchant!.id, email: await addUser(t, merchant!.id, role, email) };
}

export async function addUser(
  t: DashboardTestEdge,
  merchantId: string,
  role: "owner" | "developer" | "viewer",
  email = `${role}-${Math.random().toString(36).slice(2, 8)}@shop.example`,
): Promise<string> {
  const { invitationToken } = await t.users.inviteUser({ merchantId, email, role, invitedBy: "operator" });
  await t.users.acceptInvitation({ invitationToken, password: PASSWORD });
  return email;
}

/** Signs in through the page, as a person would; the browser then holds the session cookie. */
export async function signIn(t: DashboardTestEdge, email: string, password = PASSWORD): Promise<Browser> {
  const browser = new Browser(t.app);
  const form = await browser.get("/dashboard/sign-in");
  const res = await browser.submit(form, "/dashboard/sign-in", { email, password });
  expect(res.statusCode, res.body).toBe(303);
  expect(res.headers.location).toBe("/dashboard/payments");
  return browser;
}
