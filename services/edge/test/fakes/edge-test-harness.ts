import {
  Code,
  ConnectError,
  createClient,
  createRouterTransport,
  type Interceptor,
} from "@connectrpc/connect";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { createEdgeApp, type EdgeDeps } from "../../src/index.js";
import { FakeAccountsService } from "./fake-accounts-service.js";
import { SessionsUnderTest } from "./sessions-under-test.js";

export const ERRORS_URL = "https://gateway.test/errors";
export const ADMIN_TOKEN = "admin-token-for-tests-0123456789";

export interface TestEdge {
  app: FastifyInstance;
  clock: ManualClock;
  accounts: FakeAccountsService;
  sessions: SessionsUnderTest;
  /** Every log line the edge wrote, JSON text. */
  logLines: string[];
  /** Set to make calls to a service fail at the transport, as when its server is down. */
  outage: { accounts: boolean; sessions: boolean };
}

/** Client-side failure with no ErrorDetail, exactly what a refused connection produces. */
function outageInterceptor(isDown: () => boolean, address: string): Interceptor {
  return (next) => async (req) => {
    if (isDown()) throw new ConnectError(`connect ECONNREFUSED ${address}`, Code.Unavailable);
    return next(req);
  };
}

/**
 * The edge wired to the real sessions service and an in-memory fake of accounts over the
 * in-process transport (the same path as embedded mode), with ErrorDetail-carrying errors as
 * the real services send them, and the edge's logs captured for inspection.
 */
export function createTestEdge(
  overrides: Partial<EdgeDeps["config"]> & { readiness?: EdgeDeps["readiness"] } = {},
): TestEdge {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const accounts = new FakeAccountsService(clock);
  const sessions = new SessionsUnderTest(clock, createLogger({ service: "sessions", level: "silent" }));
  const outage = { accounts: false, sessions: false };
  const accountsTransport = createRouterTransport((router) => router.service(AccountsService, accounts), {
    router: { interceptors: [errorDetailInterceptor("accounts.gateway")] },
    transport: { interceptors: [outageInterceptor(() => outage.accounts, "10.0.0.6:50051")] },
  });
  const sessionsTransport = sessions.transport([outageInterceptor(() => outage.sessions, "10.0.0.7:50052")]);
  const logLines: string[] = [];
  const logger = createLogger({
    service: "edge",
    level: "debug",
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const { readiness, ...config } = overrides;
  const app = createEdgeApp({
    accounts: createClient(AccountsService, accountsTransport),
    sessions: createClient(SessionService, sessionsTransport),
    logger,
    clock,
    readiness,
    config: {
      errorsUrl: ERRORS_URL,
      adminToken: ADMIN_TOKEN,
      maxBodyBytes: 4096,
      authCacheTtlMs: 5000,
      ...config,
    },
  });
  return { app, clock, accounts, sessions, logLines, outage };
}

export function bearer(secret: string): { authorization: string } {
  return { authorization: `Bearer ${secret}` };
}
