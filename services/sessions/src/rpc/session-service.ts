import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Acquirer } from "@gateway/acquirer";
import { type Clock, type Logger, scopeFromProto } from "@gateway/platform";
import type { SessionService } from "@gateway/proto";
import { prometheusPaymentObserver } from "../adapters/metrics/payment-metrics.js";
import { cancelSession } from "../app/cancel-session.js";
import { createCheckout } from "../app/create-checkout.js";
import { createSession } from "../app/create-session.js";
import { getCheckout } from "../app/get-checkout.js";
import { getSession } from "../app/get-session.js";
import { listSessions } from "../app/list-sessions.js";
import { DEFAULT_RECONCILE_INTERVAL_MS, type PaymentDeps } from "../app/payment-deps.js";
import {
  DEFAULT_CHECKOUT_LINK_LIMIT,
  type ExchangeRateProvider,
  type FeePlanProvider,
  type MerchantDirectory,
  type OutboxSignal,
  type SessionRepository,
  type SessionsSettings,
  type TerminalProvider,
} from "../app/ports.js";
import { rememberActiveTerminals, rememberMerchantNames } from "../app/remembered-answers.js";
import { settleAttempt } from "../app/settle-attempt.js";
import { startPayment } from "../app/start-payment.js";
import { checkoutUrl } from "../domain/checkout-link.js";
import { CHECKOUT_STATE_TO_PROTO, settlementSourceFromProto } from "./checkout-to-proto.js";
import { createInputFromProto, listQueryFromProto } from "./request-from-proto.js";
import { createProtoSessionEventEncoder } from "./session-event-encoder.js";
import { attemptToProto, sessionToProto } from "./session-to-proto.js";

/** The acquirer adapter's default bound on each call, when the settings do not say. */
const DEFAULT_ACQUIRER_TIMEOUT_MS = 15_000;

export interface SessionServiceDeps {
  repo: SessionRepository;
  rates: ExchangeRateProvider;
  clock: Clock;
  logger: Logger;
  settings: SessionsSettings;
  acquirer: Acquirer;
  terminals: TerminalProvider;
  fees: FeePlanProvider;
  merchants: MerchantDirectory;
  outbox?: OutboxSignal;
}

/** What the payment use cases (and the sweeper) work with, from the service's dependencies. */
export function paymentDepsOf(deps: SessionServiceDeps): PaymentDeps {
  const { settings } = deps;
  return {
    repo: deps.repo,
    acquirer: deps.acquirer,
    terminals: deps.terminals,
    fees: deps.fees,
    encoder: createProtoSessionEventEncoder(settings.publicBaseUrl),
    clock: deps.clock,
    logger: deps.logger,
    publicBaseUrl: settings.publicBaseUrl,
    acquirerTimeoutMs: settings.acquirerTimeoutMs ?? DEFAULT_ACQUIRER_TIMEOUT_MS,
    reconcileIntervalMs: settings.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS,
    ...(deps.outbox ? { outbox: deps.outbox } : {}),
    observer: prometheusPaymentObserver,
  };
}

/** Connect handlers for SessionService: proto in, use case, proto out. No rules live here. */
export function createSessionServiceHandlers(deps: SessionServiceDeps): ServiceImpl<typeof SessionService> {
  const { repo, rates, clock, settings } = deps;
  const toProto = (s: Parameters<typeof sessionToProto>[0]) => sessionToProto(s, settings.publicBaseUrl);
  const payments = paymentDepsOf(deps);
  const createTerminalChecks = rememberActiveTerminals(deps.terminals, clock);
  const merchantNames = rememberMerchantNames(deps.merchants, clock);
  return {
    async createSession(req) {
      const outcome = await createSession(
        { repo, rates, terminals: createTerminalChecks, clock, lifetimes: settings },
        createInputFromProto(req),
      );
      return { session: toProto(outcome.session), created: outcome.created };
    },
    async getSession(req) {
      return { session: toProto(await getSession(repo, scopeFromProto(req.scope), req.sessionId)) };
    },
    async listSessions(req) {
      const page = await listSessions(repo, scopeFromProto(req.scope), listQueryFromProto(req));
      return {
        sessions: page.sessions.map(toProto),
        pageInfo: { hasMore: page.hasMore, nextCursor: page.nextCursor ?? "" },
      };
    },
    async cancelSession(req) {
      return { session: toProto(await cancelSession(payments, scopeFromProto(req.scope), req.sessionId)) };
    },
    async createCheckout(req) {
      const link = await createCheckout(
        {
          repo,
          clock,
          checkoutLinkLifetimeMs: settings.checkoutLinkLifetimeMs,
          checkoutLinkLimit: settings.checkoutLinkLimit ?? DEFAULT_CHECKOUT_LINK_LIMIT,
        },
        scopeFromProto(req.scope),
        req.sessionId,
      );
      return {
        checkoutUrl: checkoutUrl(settings.publicBaseUrl, link.token),
        expiresAt: timestampFromDate(link.expiresAt),
      };
    },
    async getCheckout(req) {
      const view = await getCheckout({ repo, merchants: merchantNames, clock }, req.token);
      if (!view) return {};
      return {
        session: toProto(view.session),
        merchantName: view.merchantName,
        state: CHECKOUT_STATE_TO_PROTO[view.state],
        lastFailureCode: view.lastFailureCode ?? "",
        attemptsLeft: view.attemptsLeft,
      };
    },
    async startPayment(req) {
      const started = await startPayment(payments, req.token, req.language);
      return { redirectUrl: started.redirectUrl, attemptId: started.attemptId };
    },
    async settleAttempt(req) {
      const result = await settleAttempt(
        payments,
        req.acquirerOrderId,
        settlementSourceFromProto(req.source),
      );
      return {
        session: toProto(result.session),
        attempt: attemptToProto(result.attempt, result.session.currency),
        redirectUrl: result.redirectUrl,
      };
    },
  };
}
