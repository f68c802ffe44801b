// Public surface of the refunds service, used by the launcher (embedded and distributed) and tests.
export { createRefundsRoutes, REFUNDS_ERROR_DOMAIN, type RefundsModuleDeps } from "./refunds-module.js";
export type { RefundDeps } from "./app/refund-deps.js";
export type { BalanceLedger, PaidSessionLookup, RefundChanges, RefundRepository, TerminalProvider } from "./app/ports.js";
export type { AccountScope, Balance, Refund, RefundMethod, RefundStatus, RefundType } from "./domain/refund.js";
export type { PaidSession } from "./domain/refund-rules.js";
export { InMemoryBalanceLedger } from "./adapters/memory/memory-balance-ledger.js";
export { InMemoryRefundRepository } from "./adapters/memory/memory-refund-repository.js";
export { InMemoryPaidSessionLookup } from "./adapters/memory/memory-paid-session-lookup.js";
export { createMongoBalanceLedger, MongoBalanceLedger, RESERVATIONS_COLLECTION } from "./adapters/mongo/mongo-balance-ledger.js";
export { createMongoRefundRepository, MongoRefundRepository, REFUNDS_COLLECTION } from "./adapters/mongo/mongo-refund-repository.js";
export { createAccountsTerminalProvider } from "./adapters/accounts/accounts-terminal-provider.js";
export { refundsConfigSpec, type RefundsConfig } from "./config.js";
export { createSessionsPaidSessionLookup } from "./adapters/sessions/sessions-paid-session-lookup.js";
