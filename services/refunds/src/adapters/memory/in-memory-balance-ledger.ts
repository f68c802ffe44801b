import type { BalanceLedger } from "../../app/ports.js";

interface Entry {
  refundId: string;
  kind: "take" | "release";
  amountMinor: bigint;
}

/**
 * The ledger in memory (embedded mode, tests). Each call reads and writes without yielding, so
 * in one process every reservation sees the ones before it.
 */
export class InMemoryBalanceLedger implements BalanceLedger {
  private readonly entries = new Map<string, Entry[]>();

  async refundedMinor(sessionId: string): Promise<bigint> {
    return this.total(sessionId);
  }

  async reserve(
    sessionId: string,
    refundId: string,
    decide: (refundedMinor: bigint) => bigint,
  ): Promise<bigint> {
    const entries = this.entriesOf(sessionId);
    const earlier = entries.find((e) => e.refundId === refundId && e.kind === "take");
    if (earlier !== undefined) return earlier.amountMinor;
    const amountMinor = decide(this.total(sessionId));
    entries.push({ refundId, kind: "take", amountMinor });
    return amountMinor;
  }

  async release(sessionId: string, refundId: string): Promise<void> {
    const entries = this.entriesOf(sessionId);
    const taken = entries.find((e) => e.refundId === refundId && e.kind === "take");
    if (taken === undefined || entries.some((e) => e.refundId === refundId && e.kind === "release")) return;
    entries.push({ refundId, kind: "release", amountMinor: taken.amountMinor });
  }

  /** Bounded memory (embedded mode): drops the entries of sessions whose paid record was dropped. */
  forgetSessions(sessionIds: readonly string[]): number {
    let dropped = 0;
    for (const id of sessionIds) if (this.entries.delete(id)) dropped++;
    return dropped;
  }

  private entriesOf(sessionId: string): Entry[] {
    let entries = this.entries.get(sessionId);
    if (entries === undefined) {
      entries = [];
      this.entries.set(sessionId, entries);
    }
    return entries;
  }

  private total(sessionId: string): bigint {
    let sum = 0n;
    for (const e of this.entries.get(sessionId) ?? [])
      sum += e.kind === "take" ? e.amountMinor : -e.amountMinor;
    return sum;
  }
}
