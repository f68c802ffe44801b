// Public surface of the sessions service, used by the launcher (embedded and distributed) and tests.
export {
  createSessionsModule,
  createSessionsRoutes,
  SESSIONS_ERROR_DOMAIN,
  type SessionsModule,
  type SessionsModuleDeps,
  type SessionsModuleOptions,
} from "./sessions-module.js";
export { createMemorySessionRepository, InMemorySessionRepository } from "./adapters/memory/in-memory-session-repository.js";
export { InMemorySweepLocks } from "./adapters/memory/in-memory-sweep-locks.js";
export { createMongoSweepLocks, MongoSweepLocks } from "./adapters/mongo/mongo-sweep-locks.js";
export { createMongoSessionRepository, MongoSessionRepository, SESSIONS_COLLECTION } from "./adapters/mongo/mongo-session-repository.js";
export { createAccountsRateProvider } from "./adapters/accounts/accounts-rate-provider.js";
export { createAccountsFeePlanProvider } from "./adapters/accounts/accounts-fee-plan-provider.js";
export { createAccountsMerchantDirectory } from "./adapters/accounts/accounts-merchant-directory.js";
export { publishingInRecordedTrace } from "./adapters/events/trace-continuing-event-bus.js";
export {
  createOutboxRelay,
  DEFAULT_OUTBOX_POLL_INTERVAL_MS,
  EVENT_SUBJECT_PREFIX,
  type OutboxRelay,
  type OutboxRelayOptions,
} from "./app/outbox-relay.js";
export { acquirerReturnUrl } from "./app/start-payment.js";
export { sessionsConfigSpec, type SessionsConfig } from "./config.js";
export {
  DEFAULT_CHECKOUT_LINK_LIMIT,
  PUBLISHED_OUTBOX_KEPT,
  type ExchangeRateProvider,
  type FeePlanProvider,
  type InsertResult,
  type ListPosition,
  type MerchantDirectory,
  type OutboxEvent,
  type OutboxSignal,
  type OutboxStore,
  type PendingOutboxEvent,
  type SessionListFilter,
  type SessionPage,
  type SessionRepository,
  type SessionsSettings,
  type TerminalProvider,
  type UpdateResult,
} from "./app/ports.js";
export type { FeePlan } from "./domain/fees.js";
export type { AccountScope, PaymentAttempt, Session, SessionStatus, SessionChanges } from "./domain/session.js";
