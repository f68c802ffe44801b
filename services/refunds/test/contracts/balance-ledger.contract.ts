import { GatewayError, newId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import type { BalanceLedger } from "../../src/app/ports.js";
import { amountToTake } from "../../src/domain/refund-rules.js";

/** Takes `requested` (or what is left) from a session paid `paid`, with the domain's rule. */
function take(
  ledger: BalanceLedger,
  sessionId: string,
  paid: bigint,
  requested?: bigint,
  refundId = newId("re"),
) {
  return ledger.reserve(sessionId, refundId, (refundedMinor) =>
    amountToTake(requested, { paidMinor: paid, refundedMinor }),
  );
}

async function outcome(promise: Promise<bigint>): Promise<bigint | string> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err.reason;
    throw err;
  }
}

/** The one contract every BalanceLedger adapter meets (in memory, MongoDB/FerretDB). */
export function balanceLedgerContract(name: string, open: () => Promise<BalanceLedger>): void {
  describe(`BalanceLedger (${name})`, () => {
    it("when refunds take parts of the balance, then the refunded total adds them up exactly", async () => {
      const ledger = await open();
      const session = newId("ps");
      expect(await take(ledger, session, 10_000n, 2_500n)).toBe(2_500n);
      expect(await take(ledger, session, 10_000n, 7_499n)).toBe(7_499n);
      expect(await ledger.refundedMinor(session)).toBe(9_999n);
      expect(await take(ledger, session, 10_000n)).toBe(1n);
      expect(await outcome(take(ledger, session, 10_000n))).toBe("REFUND_FAILED");
      expect(await ledger.refundedMinor(session)).toBe(10_000n);
    });

    it("when the rule refuses, then nothing is taken", async () => {
      const ledger = await open();
      const session = newId("ps");
      expect(await outcome(take(ledger, session, 1_000n, 1_001n))).toBe("REFUND_FAILED");
      expect(await ledger.refundedMinor(session)).toBe(0n);
    });

    it("when the same refund id reserves twice, then it is taken once and the first amount returned", async () => {
      const ledger = await open();
      const session = newId("ps");
      const refundId = newId("re");
      expect(await take(ledger, session, 5_000n, 3_000n, refundId)).toBe(3_000n);
      expect(await take(ledger, session, 5_000n, 1_000n, refundId)).toBe(3_000n);
      expect(await ledger.refundedMinor(session)).toBe(3_000n);
    });

    it("when a refund is released (twice), then its amount is given back once", async () => {
      const ledger = await open();
      const session = newId("ps");
      const refundId = newId("re");
      await take(ledger, session, 5_000n, 3_000n, refundId);
      await take(ledger, session, 5_000n, 500n);
      await ledger.release(session, refundId);
      await ledger.release(session, refundId);
      await ledger.release(session, newId("re"));
      expect(await ledger.refundedMinor(session)).toBe(500n);
      expect(await take(ledger, session, 5_000n)).toBe(4_500n);
    });

    it("when sessions are different, then their balances are separate", async () => {
      const ledger = await open();
      const a = newId("ps");
      const b = newId("ps");
      await take(ledger, a, 100n);
      expect(await ledger.refundedMinor(b)).toBe(0n);
      expect(await take(ledger, b, 70n)).toBe(70n);
    });

    it("when 20 partial refunds race past the paid amount, then the accepted ones never sum past it", async () => {
      const ledger = await open();
      const session = newId("ps");
      const paid = 10_000n;
      // 20 x 700 = 14 000 asked for 10 000 paid: at most 14 fit (9 800), the rest must be refused.
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => outcome(take(ledger, session, paid, 700n))),
      );
      const accepted = outcomes.filter((o): o is bigint => typeof o === "bigint");
      const refused = outcomes.filter((o) => o === "REFUND_FAILED");
      const sum = accepted.reduce((a, b) => a + b, 0n);
      expect(accepted.length + refused.length).toBe(20);
      expect(accepted).toHaveLength(14);
      expect(sum).toBe(9_800n);
      expect(await ledger.refundedMinor(session)).toBe(sum);
      // And a FULL racing with partials takes exactly what they leave.
      const more = await Promise.all([
        outcome(take(ledger, session, paid)),
        ...Array.from({ length: 5 }, () => outcome(take(ledger, session, paid, 100n))),
      ]);
      expect(more.filter((o): o is bigint => typeof o === "bigint").reduce((a, b) => a + b, 0n)).toBe(200n);
      expect(await ledger.refundedMinor(session)).toBe(paid);
    });
  });
}
