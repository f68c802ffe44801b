// Public surface of @gateway/epg-simulator: the EPG (BPC/RBS-style) protocol simulator with its
// card page, used by test mode in embedded and distributed mode and by the tests as a real peer.
export {
  createEpgSimulator,
  type EpgSimulator,
  type EpgSimulatorOptions,
  type ListeningSimulator,
} from "./epg-simulator.js";
export type { LedgerEntry, SimulatorNotification } from "./simulator-order-book.js";
export { TEST_CARDS, type TestCard, type CardOutcome } from "./test-cards.js";
export { passesLuhn } from "./card-input.js";
export { simulatorConfigSpec, type SimulatorConfig } from "./simulator-config.js";
