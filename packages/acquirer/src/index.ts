// Public surface of @gateway/acquirer: the acquirer port, the EPG (BPC/RBS-style) adapter, and
// the EPG simulator (protocol endpoints + card page) used by test mode.
export type {
  Acquirer,
  AcquirerOrderState,
  CardSummary,
  OrderStatus,
  RefundInput,
  RegisteredOrder,
  RegisterOrderInput,
  Terminal,
} from "./acquirer-port.js";
export { type CardBrand, cardBrandFromBin, summarizeMaskedPan } from "./card-brand.js";
export { DEFAULT_SETTLEMENT_TIME_ZONE, settledAfterLocalMidnight } from "./settlement-day.js";
export { createEpgAcquirer, DEFAULT_EPG_TIMEOUT_MS, type EpgAcquirerOptions } from "./epg/epg-adapter.js";
export {
  EPG_ACTION,
  EPG_ACTION_CODES,
  type FailureCode,
  describeActionCode,
  failureCodeForActionCode,
} from "./epg/action-codes.js";
export { isCredentialsRefusal, protocolError } from "./epg/epg-errors.js";
export { EPG_ERROR, EPG_OPERATIONS, EPG_ORDER_STATUS, type EpgOperation } from "./epg/epg-protocol.js";
export {
  createEpgSimulator,
  EPG_SIMULATOR_PREFIX,
  simulatorTerminalBaseUrl,
  type EpgSimulator,
  type EpgSimulatorOptions,
  type ListeningSimulator,
} from "./simulator/epg-simulator.js";
export type { LedgerEntry, SimulatorNotification } from "./simulator/simulator-order-book.js";
export { DEFAULT_SIMULATOR_CREDENTIALS, type TerminalCredential } from "./simulator/terminal-credentials.js";
export { TEST_CARDS, type TestCard, type CardOutcome } from "./simulator/test-cards.js";
export { passesLuhn } from "./simulator/card-input.js";
export { simulatorConfigSpec, type SimulatorConfig } from "./simulator/simulator-config.js";
export { futureExpiry, payOnCardPage, type CardEntry, type CardPageResult } from "./simulator/card-page-driver.js";
export { createAccountsTerminalProvider, type TerminalProvider } from "./accounts-terminal-provider.js";
