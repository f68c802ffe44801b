// Public surface of the refunds service, used by the launcher (embedded and distributed) and tests.

export { DEFAULT_REFUNDS_DURABLE } from "./adapters/events/session-succeeded-consumer.js";
export { InMemoryBalanceLedger } from "./adapters/memory/in-memory-balance-ledger.js";
export { InMemoryPaidSessionLookup } from "./adapters/memory/in-memory-paid-session-lookup.js";
export { InMemoryPaidSessionStore } from "./adapters/memory/in-memory-paid-session-store.js";
export { InMemoryRefundRepository } from "./adapters/memory/in-memory-refund-repository.js";
export {
  createMongoBalanceLedger,
  MongoBalanceLedger,
  RESERVATIONS_COLLECTION,
} from "./adapters/mongo/mongo-balance-ledger.js";
export {
  createMongoPaidSessionStore,
  MongoPaidSessionStore,
  PAID_SESSIONS_COLLECTION,
} from "./adapters/mongo/mongo-paid-session-store.js";
export {
  createMongoRefundRepository,
  MongoRefundRepository,
  REFUNDS_COLLECTION,
  SETTLEMENTS_COLLECTION,
} from "./adapters/mongo/mongo-refund-repository.js";
export { createSessionsPaidSessionLookup } from "./adapters/sessions/sessions-paid-session-lookup.js";
export type {
  BalanceLedger,
  OutboxSignal,
  PaidSessionLookup,
  PaidSessionStore,
  RefundOutboxStore,
  RefundRepository,
  Settlement,
  TerminalProvider,
} from "./app/ports.js";
export type { RefundDeps } from "./app/refund-deps.js";
export { type RefundsConfig, refundsConfigSpec } from "./config.js";
export type { PaidSessionRecord } from "./domain/paid-session-record.js";
export type {
  AccountScope,
  Balance,
  Refund,
  RefundMethod,
  RefundStatus,
  RefundType,
} from "./domain/refund.js";
export type { RefundEventType } from "./domain/refund-events.js";
export type { PaidSession } from "./domain/refund-rules.js";
export {
  createRefundsRoutes,
  createRefundsRuntime,
  REFUNDS_ERROR_DOMAIN,
  type RefundsModuleDeps,
  type RefundsRuntime,
  type RefundsRuntimeDeps,
} from "./refunds-module.js";
