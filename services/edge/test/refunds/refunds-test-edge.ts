import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import { AccountsService, RefundService, type Session, SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { createEdgeApp } from "../../src/index.js";
import { ADMIN_TOKEN, bearer, ERRORS_URL } from "../fakes/edge-test-harness.js";
import { FakeAccountsService } from "../fakes/fake-accounts-service.js";
import { FakeRefundsService } from "../fakes/fake-refunds-service.js";
import { SessionsUnderTest } from "../fakes/sessions-under-test.js";

export interface RefundsTestEdge {
  app: FastifyInstance;
  clock: ManualClock;
  accounts: FakeAccountsService;
  sessions: SessionsUnderTest;
  refunds: FakeRefundsService;
}

/** The edge wired to the real sessions service and fakes of accounts and refunds, in process. */
export function createRefundsTestEdge(options: { withRefunds?: boolean } = {}): RefundsTestEdge {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const accounts = new FakeAccountsService(clock);
  const logger = createLogger({ service: "edge", level: "silent" });
  const sessions = new SessionsUnderTest(clock, logger);
  const refunds = new FakeRefundsService(clock, (scope, id) => sessions.find(scope, id));
  const transport = <S extends typeof AccountsService | typeof RefundService>(
    service: S,
    impl: object,
    domain: string,
  ) =>
    createRouterTransport((router) => router.service(service, impl as never), {
      router: { interceptors: [errorDetailInterceptor(domain)] },
    });
  const app = createEdgeApp({
    accounts: createClient(AccountsService, transport(AccountsService, accounts, "accounts.gateway")),
    sessions: createClient(SessionService, sessions.transport()),
    ...(options.withRefunds === false
      ? {}
      : { refunds: createClient(RefundService, transport(RefundService, refunds, "refunds.gateway")) }),
    logger,
    clock,
    config: { errorsUrl: ERRORS_URL, adminToken: ADMIN_TOKEN, maxBodyBytes: 4096, authCacheTtlMs: 5000 },
  });
  return { app, clock, accounts, sessions, refunds };
}

/** JSON call headers with the test API key of a new merchant. */
export async function merchantHeaders(t: RefundsTestEdge): Promise<Record<string, string>> {
  const key = await t.accounts.issueKey();
  return { ...bearer(key.secret), "content-type": "application/json" };
}

/** Creates a session through the API and pays it as a buyer would. */
export async function paidSession(
  t: RefundsTestEdge,
  headers: Record<string, string>,
  amount = "100.000",
): Promise<Session> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/gateway/sessions/",
    headers,
    payload: JSON.stringify({ merchant_reference: `ref-${t.sessions.count}`, amount }),
  });
  return t.sessions.pay(res.json().id);
}
