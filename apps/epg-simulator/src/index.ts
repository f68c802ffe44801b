// Public surface of @gateway/epg-simulator: the EPG (BPC/RBS-style) protocol simulator with its
// card page, used by test mode in embedded and distributed mode and by the tests as a real peer.

export { passesLuhn } from "./card-input.js";
export {
  createEpgSimulator,
  type EpgSimulator,
  type EpgSimulatorOptions,
  type ListeningSimulator,
} from "./epg-simulator.js";
export { type SimulatorConfig, simulatorConfigSpec } from "./simulator-config.js";
export type { LedgerEntry, SimulatorNotification } from "./simulator-order-book.js";
export { type CardOutcome, TEST_CARDS, type TestCard } from "./test-cards.js";
