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

  /**
   * Bounded memory (embedded mode): drops records made before `cutoff`; returns their session ids
   * so the ledger forgets the same sessions (their sessions are gone too: no refund can follow).
   */
  forgetOlderThan(cutoff: Date): string[] {
    const dropped: string[] = [];
    for (const [sessionId, r] of this.bySession) {
      if (r.recordedAt.getTime() >= cutoff.getTime()) continue;
      this.bySession.delete(sessionId);
      dropped.push(sessionId);
    }
    return dropped;
  }

  async find(scope: AccountScope, sessionId: string): Promise<PaidSessionRecord | undefined> {
    const r = this.bySession.get(sessionId);
    return r !== undefined && r.scope.merchantId === scope.merchantId && r.scope.livemode === scope.livemode
      ? copy(r)
      : undefined;
  }
}
