// Public surface of @gateway/acquirer: the acquirer port, the EPG (BPC/RBS-style) adapter and the
// well-known test terminal of the EPG simulator (which lives in apps/epg-simulator).
export type {
  Acquirer,
  AcquirerOrderState,
  CardSummary,
  OrderStatus,
  RefundInput,
  RegisteredOrder,
  RegisterOrderInput,
  Terminal,
  TerminalProvider,
} from "./acquirer-port.js";
export { type CardBrand, cardBrandFromBin, summarizeMaskedPan } from "./card-brand.js";
export {
  describeActionCode,
  EPG_ACTION,
  EPG_ACTION_CODES,
  type FailureCode,
  failureCodeForActionCode,
} from "./epg/action-codes.js";
export { createEpgAcquirer, DEFAULT_EPG_TIMEOUT_MS, type EpgAcquirerOptions } from "./epg/epg-adapter.js";
export { isCredentialsRefusal, protocolError } from "./epg/epg-errors.js";
export {
  EPG_ERROR,
  EPG_OPERATIONS,
  EPG_ORDER_STATUS,
  type EpgOperation,
  type EpgOrderStatusCode,
} from "./epg/epg-protocol.js";
export {
  DEFAULT_SIMULATOR_CREDENTIALS,
  EPG_SIMULATOR_PREFIX,
  simulatorTerminalBaseUrl,
  type TerminalCredential,
} from "./epg/test-terminal.js";
export { DEFAULT_SETTLEMENT_TIME_ZONE, settledAfterLocalMidnight } from "./settlement-day.js";
