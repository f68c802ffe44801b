import type { PaidSessionLookup } from "../../app/ports.js";
import type { AccountScope } from "../../domain/refund.js";
import type { PaidSession } from "../../domain/refund-rules.js";

const key = (scope: AccountScope, sessionId: string) =>
  `${scope.merchantId}\n${scope.livemode}\n${sessionId}`;

/** Sessions told by hand (tests, and embedded mode until sessions exposes the acquirer order id). */
export class InMemoryPaidSessionLookup implements PaidSessionLookup {
  private readonly sessions = new Map<string, PaidSession>();

  put(scope: AccountScope, sessionId: string, session: PaidSession): void {
    this.sessions.set(key(scope, sessionId), { ...session });
  }

  async find(scope: AccountScope, sessionId: string): Promise<PaidSession | undefined> {
    const found = this.sessions.get(key(scope, sessionId));
    return found === undefined ? undefined : { ...found };
  }
}
