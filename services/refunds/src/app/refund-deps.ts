import type { Acquirer } from "@gateway/acquirer";
import type { Clock, IdGenerator, Logger } from "@gateway/platform";
import type {
  BalanceLedger,
  OutboxSignal,
  PaidSessionLookup,
  PaidSessionStore,
  RefundEventEncoder,
  RefundObserver,
  RefundRepository,
  TerminalProvider,
} from "./ports.js";

export interface RefundDeps {
  /** The sessions service: the authority every refund is checked against. */
  sessions: PaidSessionLookup;
  /** What each session was paid, as learned from session events. */
  paidSessions: PaidSessionStore;
  terminals: TerminalProvider;
  ledger: BalanceLedger;
  refunds: RefundRepository;
  acquirer: Acquirer;
  /** Encodes the refund.succeeded / refund.failed events stored with a settlement. */
  events: RefundEventEncoder;
  /** Told when a settlement stored an event (the outbox relay). */
  outbox?: OutboxSignal;
  clock: Clock;
  newId: IdGenerator;
  logger: Logger;
  /** Told of refund outcomes (metrics). */
  observer?: RefundObserver;
}
