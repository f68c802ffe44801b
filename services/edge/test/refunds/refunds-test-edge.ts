import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import {
  AccountsService,
  AttemptStatus,
  PaymentAttemptSchema,
  RefundService,
  type Session,
  SessionService,
  SessionStatus,
} from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { createEdgeApp } from "../../src/index.js";
import { ADMIN_TOKEN, bearer, ERRORS_URL } from "../fakes/edge-test-harness.js";
import { FakeAccountsService } from "../fakes/fake-accounts-service.js";
import { FakeRefundsService } from "../fakes/fake-refunds-service.js";
import { FakeSessionsService } from "../fakes/fake-sessions-service.js";

export interface RefundsTestEdge {
  app: FastifyInstance;
  clock: ManualClock;
  accounts: FakeAccountsService;
  sessions: FakeSessionsService;
  refunds: FakeRefundsService;
}

/** The edge wired to fakes of accounts, sessions and refunds through Connect's router transport. */
export function createRefundsTestEdge(options: { withRefunds?: boolean } = {}): RefundsTestEdge {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const accounts = new FakeAccountsService(clock);
  const sessions = new FakeSessionsService(clock);
  const refunds = new FakeRefundsService(clock, (scope, id) =>
    sessions.sessions.find(
      (s) => s.id === id && s.scope?.merchantId === scope.merchantId && s.scope.livemode === scope.livemode,
    ),
  );
  const transport = <S extends typeof AccountsService | typeof SessionService | typeof RefundService>(
    service: S,
    impl: object,
    domain: string,
  ) =>
    createRouterTransport((router) => router.service(service, impl as never), {
      router: { interceptors: [errorDetailInterceptor(domain)] },
    });
  const app = createEdgeApp({
    accounts: createClient(AccountsService, transport(AccountsService, accounts, "accounts.gateway")),
    sessions: createClient(SessionService, transport(SessionService, sessions, "sessions.gateway")),
    ...(options.withRefunds === false
      ? {}
      : { refunds: createClient(RefundService, transport(RefundService, refunds, "refunds.gateway")) }),
    logger: createLogger({ service: "edge", level: "silent" }),
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

/** Creates a session through the API and marks it paid, as the sessions service would after settlement. */
export async function paidSession(
  t: RefundsTestEdge,
  headers: Record<string, string>,
  amount = "100.000",
): Promise<Session> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/gateway/sessions/",
    headers,
    payload: JSON.stringify({ merchant_reference: `ref-${t.sessions.sessions.length}`, amount }),
  });
  const session = t.sessions.sessions.find((s) => s.id === res.json().id)!;
  session.status = SessionStatus.SUCCEEDED;
  session.attempts.push(
    create(PaymentAttemptSchema, {
      id: `pa_${session.id}`,
      attemptNumber: 1,
      status: AttemptStatus.SUCCEEDED,
      acquirerOrderId: `acq-${session.id}`,
      createdAt: timestampFromDate(t.clock.now()),
    }),
  );
  return session;
}
