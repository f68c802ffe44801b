import { combineOutcomes, type Decision, type ResolvedBudget } from "./decision.js";
import { consumeGcra, evaluateGcra } from "./gcra.js";
import { TatTable } from "./tat-table.js";

/**
 * GCRA over this replica's memory, used when the shared store cannot decide. Synchronous, so a
 * multi-budget check is atomic for free. While the store is healthy it mirrors the requests the
 * store admitted through this replica (record), so a failover does not hand out a fresh burst.
 */
export class LocalGcraLimiter {
  private readonly tats: TatTable;

  constructor(maxEntries?: number) {
    this.tats = new TatTable(maxEntries);
  }

  decide(budgets: readonly ResolvedBudget[], now: number): Decision {
    const outcomes = budgets.map((b) => evaluateGcra(b.limit, this.tats.get(b.key, now), now));
    const decision = combineOutcomes(budgets, outcomes, true);
    if (decision.allowed) {
      budgets.forEach((b, i) => {
        const outcome = outcomes[i];
        if (outcome !== undefined) this.tats.set(b.key, outcome.newTat, now);
      });
    }
    return decision;
  }

  record(budgets: readonly ResolvedBudget[], now: number): void {
    for (const b of budgets) this.tats.set(b.key, consumeGcra(b.limit, this.tats.get(b.key, now), now), now);
  }
}
