// Public surface of the sessions service, used by the launcher (embedded and distributed) and tests.

export { createAccountsFeePlanProvider } from "./adapters/accounts/accounts-fee-plan-provider.js";
export { createAccountsMerchantDirectory } from "./adapters/accounts/accounts-merchant-directory.js";
export { createAccountsRateProvider } from "./adapters/accounts/accounts-rate-provider.js";
export { publishingInRecordedTrace } from "./adapters/events/trace-continuing-event-bus.js";
export {
  createMemorySessionRepository,
  InMemorySessionRepository,
} from "./adapters/memory/in-memory-session-repository.js";
export { InMemorySweepLocks } from "./adapters/memory/in-memory-sweep-locks.js";
export {
  createMongoSessionRepository,
  MongoSessionRepository,
  SESSIONS_COLLECTION,
} from "./adapters/mongo/mongo-session-repository.js";
export { createMongoSweepLocks, MongoSweepLocks } from "./adapters/mongo/mongo-sweep-locks.js";
export {
  createOutboxRelay,
  DEFAULT_OUTBOX_POLL_INTERVAL_MS,
  EVENT_SUBJECT_PREFIX,
  type OutboxRelay,
  type OutboxRelayOptions,
} from "./app/outbox-relay.js";
export {
  DEFAULT_CHECKOUT_LINK_LIMIT,
  type ExchangeRateProvider,
  type FeePlanProvider,
  type InsertResult,
  type ListPosition,
  type MerchantDirectory,
  type OutboxEvent,
  type OutboxSignal,
  type OutboxStore,
  type PendingOutboxEvent,
  PUBLISHED_OUTBOX_KEPT,
  type SessionListFilter,
  type SessionPage,
  type SessionRepository,
  type SessionsSettings,
  type TerminalProvider,
  type UpdateResult,
} from "./app/ports.js";
export { acquirerReturnUrl } from "./app/start-payment.js";
export { type SessionsConfig, sessionsConfigSpec } from "./config.js";
export type { FeePlan } from "./domain/fees.js";
export type {
  AccountScope,
  PaymentAttempt,
  Session,
  SessionChanges,
  SessionStatus,
} from "./domain/session.js";
export {
  createSessionsModule,
  createSessionsRoutes,
  SESSIONS_ERROR_DOMAIN,
  type SessionsModule,
  type SessionsModuleDeps,
  type SessionsModuleOptions,
} from "./sessions-module.js";
