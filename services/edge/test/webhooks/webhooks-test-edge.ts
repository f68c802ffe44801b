import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import { AccountsService, SessionService, WebhookService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { createEdgeApp } from "../../src/index.js";
import { ADMIN_TOKEN, bearer, ERRORS_URL } from "../fakes/edge-test-harness.js";
import { FakeAccountsService } from "../fakes/fake-accounts-service.js";
import { FakeWebhooksService } from "../fakes/fake-webhooks-service.js";
import { SessionsUnderTest } from "../fakes/sessions-under-test.js";

export interface WebhooksTestEdge {
  app: FastifyInstance;
  clock: ManualClock;
  accounts: FakeAccountsService;
  sessions: SessionsUnderTest;
  webhooks: FakeWebhooksService;
  /** Set to make calls to the webhooks service fail at the transport, as when it is down. */
  outage: { webhooks: boolean };
}

/** The edge wired to the real sessions service and fakes of accounts and webhooks, in process. */
export function createWebhooksTestEdge(options: { withWebhooks?: boolean } = {}): WebhooksTestEdge {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const accounts = new FakeAccountsService(clock);
  const logger = createLogger({ service: "edge", level: "silent" });
  const sessions = new SessionsUnderTest(clock, logger);
  const webhooks = new FakeWebhooksService(clock);
  const outage = { webhooks: false };
  const transport = <S extends typeof AccountsService | typeof WebhookService>(
    service: S,
    impl: object,
    domain: string,
  ) =>
    createRouterTransport((router) => router.service(service, impl as never), {
      router: { interceptors: [errorDetailInterceptor(domain)] },
      transport: {
        interceptors: [
          (next) => async (req) => {
            if (domain === "webhooks.gateway" && outage.webhooks)
              throw new ConnectError("connect ECONNREFUSED 10.0.0.9:50054", Code.Unavailable);
            return next(req);
          },
        ],
      },
    });
  const app = createEdgeApp({
    accounts: createClient(AccountsService, transport(AccountsService, accounts, "accounts.gateway")),
    sessions: createClient(SessionService, sessions.transport()),
    ...(options.withWebhooks === false
      ? {}
      : { webhooks: createClient(WebhookService, transport(WebhookService, webhooks, "webhooks.gateway")) }),
    logger,
    clock,
    config: { errorsUrl: ERRORS_URL, adminToken: ADMIN_TOKEN, maxBodyBytes: 4096, authCacheTtlMs: 5000 },
  });
  return { app, clock, accounts, sessions, webhooks, outage };
}

/** The edge above with one merchant's test key: its Authorization header and merchant id. */
export async function webhooksTestEdgeWithKey(): Promise<{
  t: WebhooksTestEdge;
  headers: Record<string, string>;
  merchantId: string;
}> {
  const t = createWebhooksTestEdge();
  const key = await t.accounts.issueKey();
  return { t, headers: bearer(key.secret), merchantId: key.merchantId };
}
