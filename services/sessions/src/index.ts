// Public surface of the sessions service, used by the launcher (embedded and distributed) and tests.
export { createSessionsRoutes, SESSIONS_ERROR_DOMAIN, type SessionsModuleDeps } from "./sessions-module.js";
export { createMemorySessionRepository, InMemorySessionRepository } from "./adapters/memory/memory-session-repository.js";
export { createMongoSessionRepository, MongoSessionRepository, SESSIONS_COLLECTION } from "./adapters/mongo/mongo-session-repository.js";
export { createAccountsRateProvider } from "./adapters/accounts/accounts-rate-provider.js";
export { sessionsConfigSpec, type SessionsConfig } from "./config.js";
export type {
  ExchangeRateProvider,
  InsertResult,
  ListPosition,
  SessionListFilter,
  SessionPage,
  SessionRepository,
  SessionsSettings,
  UpdateResult,
} from "./app/ports.js";
export type { AccountScope, Session, SessionStatus, SessionChanges } from "./domain/session.js";
