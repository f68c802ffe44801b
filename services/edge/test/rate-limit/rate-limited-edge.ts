import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import {
  createGcraRateLimiter,
  defaultRateLimitPolicy,
  type GcraStore,
  InMemoryGcraStore,
  type RateLimiter,
  type RateLimitPolicy,
} from "@gateway/rate-limiter";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { createEdgeApp } from "../../src/index.js";
import { ERRORS_URL } from "../fakes/edge-test-harness.js";
import { FakeAccountsService } from "../fakes/fake-accounts-service.js";
import { SessionsUnderTest } from "../fakes/sessions-under-test.js";

export interface RateLimitedEdge {
  app: FastifyInstance;
  clock: ManualClock;
  accounts: FakeAccountsService;
  limiter: RateLimiter | undefined;
  logLines: string[];
}

/**
 * The real edge app over the real sessions service and an in-memory fake of accounts, with a GCRA limiter on a
 * ManualClock (so tests decide when budgets refill) over an in-memory store unless one is given.
 * `policy: "off"` builds the app without a limiter, as GATEWAY_RATE_LIMITS=off does.
 */
export function createRateLimitedEdge(
  options: { policy?: RateLimitPolicy | "off"; store?: GcraStore } = {},
): RateLimitedEdge {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const accounts = new FakeAccountsService(clock);
  const logLines: string[] = [];
  const logger = createLogger({
    service: "edge",
    level: "debug",
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const sessions = new SessionsUnderTest(clock, createLogger({ service: "sessions", level: "silent" }));
  const policy = options.policy ?? defaultRateLimitPolicy;
  const limiter =
    policy === "off"
      ? undefined
      : createGcraRateLimiter({
          store: options.store ?? new InMemoryGcraStore({ clock }),
          policy,
          clock,
          logger,
        });
  const app = createEdgeApp({
    accounts: createClient(
      AccountsService,
      createRouterTransport((router) => router.service(AccountsService, accounts), {
        router: { interceptors: [errorDetailInterceptor("accounts.gateway")] },
      }),
    ),
    sessions: createClient(SessionService, sessions.transport()),
    logger,
    clock,
    rateLimiter: limiter,
    config: { errorsUrl: ERRORS_URL, maxBodyBytes: 4096, authCacheTtlMs: 60_000 },
  });
  return { app, clock, accounts, limiter, logLines };
}

/** One merchant with a test key and a live key (both share the merchant's budgets per mode). */
export async function merchantWithKeys(
  accounts: FakeAccountsService,
): Promise<{ merchantId: string; testKey: string; liveKey: string }> {
  const { merchant } = await accounts.createMerchant({ name: "Limited Shop" });
  await accounts.verifyMerchant({ merchantId: merchant.id });
  const test = await accounts.createApiKey({ merchantId: merchant.id, livemode: false });
  const live = await accounts.createApiKey({ merchantId: merchant.id, livemode: true });
  return { merchantId: merchant.id, testKey: test.secret, liveKey: live.secret };
}

export const SESSIONS = "/api/v1/gateway/sessions/";
export const LIST = "/api/v1/gateway/sessions/list/";

export function sessionBody(reference: string): string {
  return JSON.stringify({ merchant_reference: reference, amount: "10.000", currency: "TND" });
}

/** Sends the same request `count` times, one after another, at the same ManualClock instant. */
export async function repeat(
  count: number,
  send: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await send());
  return responses;
}

export function statuses(responses: readonly LightMyRequestResponse[]): number[] {
  return responses.map((r) => r.statusCode);
}
