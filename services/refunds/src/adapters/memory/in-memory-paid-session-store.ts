import type { PaidSessionStore } from "../../app/ports.js";
import type { PaidSessionRecord } from "../../domain/paid-session-record.js";
import type { AccountScope } from "../../domain/refund.js";

const copy = (r: PaidSessionRecord): PaidSessionRecord => ({ ...r, scope: { ...r.scope } });

/** Paid sessions in memory (embedded mode, tests): the first record of a session stands. */
export class InMemoryPaidSessionStore implements PaidSessionStore {
  private readonly bySession = new Map<string, PaidSessionRecord>();

  async record(record: PaidSessionRecord): Promise<{ stored: boolean; record: PaidSessionRecord }> {
    const earlier = this.bySession.get(record.sessionId);
    if (earlier !== undefined) return { stored: false, record: copy(earlier) };
    this.bySession.set(record.sessionId, copy(record));
    return { stored: true, record: copy(record) };
  }

  async find(scope: AccountScope, sessionId: string): Promise<PaidSessionRecord | undefined> {
    const r = this.bySession.get(sessionId);
    return r !== undefined && r.scope.merchantId === scope.merchantId && r.scope.livemode === scope.livemode ? copy(r) : undefined;
  }
}
