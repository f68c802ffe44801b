import type { Acquirer } from "@gateway/acquirer";
import type { Clock, IdGenerator } from "@gateway/platform";
import type { BalanceLedger, PaidSessionLookup, RefundRepository, TerminalProvider } from "./ports.js";

export interface RefundDeps {
  sessions: PaidSessionLookup;
  terminals: TerminalProvider;
  ledger: BalanceLedger;
  refunds: RefundRepository;
  acquirer: Acquirer;
  clock: Clock;
  newId: IdGenerator;
}
