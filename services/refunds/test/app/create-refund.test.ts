import { createEpgAcquirer } from "@gateway/acquirer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refundAtAcquirer } from "../../src/app/acquirer-step.js";
import { createRefund } from "../../src/app/create-refund.js";
import { getRefund, listManualRefunds, resolveManualRefund } from "../../src/app/manual-refunds.js";
import { errorOf } from "../support/reason-of.js";
import { type RefundHarness, startRefundHarness, startSilentServer } from "../support/refund-harness.js";

let h: RefundHarness;

beforeAll(async () => {
  h = await startRefundHarness();
});

afterAll(async () => {
  await h.close();
});

const ledgerOf = (acquirerOrderId: string) =>
  h.simulator.ledger().find((e) => e.acquirerOrderId === acquirerOrderId);

describe("refunds against the EPG simulator", () => {
  it("when an unsettled payment is refunded in full, then it is reversed and confirmed", async () => {
    h.setSettled(false);
    const s = await h.paidSession(34_000n);
    const refund = await createRefund(h.deps, { ...s, type: "FULL", reason: "customer asked" });
    expect(refund).toMatchObject({
      status: "SUCCEEDED",
      automated: true,
      method: "REVERSAL",
      amountMinor: 34_000n,
      acquirerErrorMessage: "",
      type: "FULL",
    });
    expect(refund.id).toMatch(/^re_/);
    expect(ledgerOf(s.acquirerOrderId)?.state).toBe("REVERSED");
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(34_000n);
    expect(await getRefund(h.deps, s.scope, refund.id)).toEqual(refund);
  });

  it("when a settled payment is refunded in full, then the reversal is refused and it is refunded instead", async () => {
    h.setSettled(true);
    const s = await h.paidSession(12_345n);
    const refund = await createRefund(h.deps, { ...s, type: "FULL" });
    expect(refund).toMatchObject({
      status: "SUCCEEDED",
      automated: true,
      method: "REFUND",
      amountMinor: 12_345n,
    });
    expect(ledgerOf(s.acquirerOrderId)).toMatchObject({
      refundedMinor: 12_345n,
      refunds: [{ externalRefundId: refund.id, amountMinor: 12_345n }],
    });
  });

  it("when partial refunds take the balance down to zero, then each is refunded and the last leaves exactly nothing", async () => {
    h.setSettled(false);
    const s = await h.paidSession(10_000n);
    const first = await createRefund(h.deps, { ...s, type: "PARTIAL", amount: "2.500" });
    const second = await createRefund(h.deps, { ...s, type: "PARTIAL", amount: "7.499" });
    expect([first.method, first.amountMinor, second.method, second.amountMinor]).toEqual([
      "REFUND",
      2_500n,
      "REFUND",
      7_499n,
    ]);
    expect(
      (await errorOf(() => createRefund(h.deps, { ...s, type: "PARTIAL", amount: "0.002" }))).reason,
    ).toBe("REFUND_FAILED");
    const rest = await createRefund(h.deps, { ...s, type: "FULL" });
    expect(rest).toMatchObject({ status: "SUCCEEDED", method: "REFUND", amountMinor: 1n });
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(10_000n);
    expect((await errorOf(() => createRefund(h.deps, { ...s, type: "FULL" }))).reason).toBe("REFUND_FAILED");
    expect(ledgerOf(s.acquirerOrderId)).toMatchObject({ depositedMinor: 10_000n, refundedMinor: 10_000n });
    expect(ledgerOf(s.acquirerOrderId)?.refunds.map((r) => r.externalRefundId)).toEqual([
      first.id,
      second.id,
      rest.id,
    ]);
  });

  it("when a partial refund exceeds the balance, then it is REFUND_FAILED and nothing reaches the acquirer", async () => {
    const s = await h.paidSession(1_000n);
    const err = await errorOf(() => createRefund(h.deps, { ...s, type: "PARTIAL", amount: "1.001" }));
    expect(err.reason).toBe("REFUND_FAILED");
    expect(err.message).toMatch(/exceeds the refundable balance/);
    expect(ledgerOf(s.acquirerOrderId)?.refunds).toEqual([]);
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(0n);
  });

  it("when the acquirer step repeats with the same refund id, then the acquirer refunds once", async () => {
    const s = await h.paidSession(5_000n);
    const step = {
      terminal: h.terminal,
      acquirerOrderId: s.acquirerOrderId,
      refundId: "re_retry0000000000000000001",
      amountMinor: 2_000n,
      wholePayment: false,
      settled: false,
    };
    expect((await refundAtAcquirer(h.acquirer, step)).status).toBe("SUCCEEDED");
    expect((await refundAtAcquirer(h.acquirer, step)).status).toBe("SUCCEEDED");
    expect(ledgerOf(s.acquirerOrderId)).toMatchObject({
      refundedMinor: 2_000n,
      refunds: [{ externalRefundId: step.refundId, amountMinor: 2_000n }],
    });
  });

  it("when a reversal step repeats (its first answer lost), then the order is found reversed and nothing is refunded", async () => {
    h.setSettled(false);
    const s = await h.paidSession(3_000n);
    const step = {
      terminal: h.terminal,
      acquirerOrderId: s.acquirerOrderId,
      refundId: "re_retry0000000000000000002",
      amountMinor: 3_000n,
      wholePayment: true,
      settled: undefined,
    };
    expect(await refundAtAcquirer(h.acquirer, step)).toMatchObject({
      status: "SUCCEEDED",
      method: "REVERSAL",
    });
    expect(await refundAtAcquirer(h.acquirer, step)).toMatchObject({
      status: "SUCCEEDED",
      method: "REVERSAL",
    });
    expect(ledgerOf(s.acquirerOrderId)).toMatchObject({ state: "REVERSED", refunds: [] });
  });

  it("when a refund is repeated with the same Idempotency-Key, then the first refund comes back and the acquirer refunds once", async () => {
    h.setSettled(true);
    const s = await h.paidSession(9_000n);
    const first = await createRefund(h.deps, {
      ...s,
      type: "PARTIAL",
      amount: "2.000",
      idempotencyKey: "order-77-refund",
    });
    const again = await createRefund(h.deps, {
      ...s,
      type: "PARTIAL",
      amount: "2.000",
      idempotencyKey: "order-77-refund",
    });
    expect(again).toEqual(first);
    const concurrent = await Promise.all(
      Array.from({ length: 8 }, () =>
        createRefund(h.deps, { ...s, type: "PARTIAL", amount: "1.000", idempotencyKey: "order-77-second" }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.id)).size).toBe(1);
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(3_000n);
    expect(ledgerOf(s.acquirerOrderId)).toMatchObject({ refundedMinor: 3_000n });
    expect(ledgerOf(s.acquirerOrderId)?.refunds).toHaveLength(2);
    // Another key is another refund.
    expect(
      (
        await createRefund(h.deps, {
          ...s,
          type: "PARTIAL",
          amount: "2.000",
          idempotencyKey: "order-77-third",
        })
      ).id,
    ).not.toBe(first.id);
  });

  it("when an Idempotency-Key is reused for a different refund, then CONFLICT and nothing more is refunded", async () => {
    const s = await h.paidSession(9_000n);
    await createRefund(h.deps, { ...s, type: "PARTIAL", amount: "2.000", idempotencyKey: "k-1" });
    expect(
      (
        await errorOf(() =>
          createRefund(h.deps, { ...s, type: "PARTIAL", amount: "2.500", idempotencyKey: "k-1" }),
        )
      ).reason,
    ).toBe("CONFLICT");
    expect(
      (await errorOf(() => createRefund(h.deps, { ...s, type: "FULL", idempotencyKey: "k-1" }))).reason,
    ).toBe("CONFLICT");
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(2_000n);
    // The same key on another session is another refund.
    const other = await h.paidSession(1_000n);
    expect((await createRefund(h.deps, { ...other, type: "FULL", idempotencyKey: "k-1" })).amountMinor).toBe(
      1_000n,
    );
  });

  it("when the acquirer times out, then the refund is recorded for manual processing and the call still succeeds", async () => {
    const silent = await startSilentServer();
    try {
      const s = await h.paidSession(8_000n);
      const deps = {
        ...h.deps,
        acquirer: createEpgAcquirer({ timeoutMs: 300 }),
        terminals: { terminalFor: async () => ({ ...h.terminal, baseUrl: silent.url }) },
      };
      const refund = await createRefund(deps, { ...s, type: "PARTIAL", amount: "3.000" });
      expect(refund).toMatchObject({ status: "PENDING_MANUAL", automated: false, amountMinor: 3_000n });
      expect(refund.acquirerErrorMessage).not.toBe("");
      // Taken all the same: the money may be on its way back.
      expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(3_000n);
      expect((await listManualRefunds(h.deps, 100)).map((r) => r.id)).toContain(refund.id);
    } finally {
      await silent.close();
    }
  });

  it("when the acquirer refuses the refund, then its own message is kept for operations", async () => {
    h.setSettled(true);
    const s = await h.paidSession(4_000n);
    // The acquirer's order is already refunded elsewhere, so it refuses ours.
    await h.acquirer.refund({
      terminal: h.terminal,
      acquirerOrderId: s.acquirerOrderId,
      amountMinor: 4_000n,
      externalRefundId: "outside",
    });
    const refund = await createRefund(h.deps, { ...s, type: "FULL" });
    expect(refund).toMatchObject({ status: "PENDING_MANUAL", automated: false, method: "REFUND" });
    expect(refund.acquirerErrorMessage).toMatch(/exceeds the deposited amount/);
  });
});

describe("refund rules at the use case", () => {
  it("when the session is unknown, then NOT_FOUND", async () => {
    const s = await h.paidSession(1_000n);
    expect(
      (await errorOf(() => createRefund(h.deps, { ...s, sessionId: "ps_nope", type: "FULL" }))).reason,
    ).toBe("NOT_FOUND");
    expect(
      (
        await errorOf(() =>
          createRefund(h.deps, { ...s, scope: { ...s.scope, livemode: true }, type: "FULL" }),
        )
      ).reason,
    ).toBe("NOT_FOUND");
  });

  it("when the session did not succeed or has no payment, then INVALID_STATE or NO_PAYMENT", async () => {
    const s = await h.paidSession(1_000n);
    const facts = {
      amountMinor: 1_000n,
      currency: "TND",
      acquirerOrderId: undefined,
      merchantReference: "r",
      orderNumber: "GW-R",
      webhookUrl: "",
    };
    h.sessions.put(s.scope, "ps_pending", { ...facts, status: "PENDING" });
    h.sessions.put(s.scope, "ps_unpaid", { ...facts, status: "SUCCEEDED" });
    expect(
      (await errorOf(() => createRefund(h.deps, { ...s, sessionId: "ps_pending", type: "FULL" }))).reason,
    ).toBe("INVALID_STATE");
    expect(
      (await errorOf(() => createRefund(h.deps, { ...s, sessionId: "ps_unpaid", type: "FULL" }))).reason,
    ).toBe("NO_PAYMENT");
  });

  it("when refund_type is missing or the amount is malformed, then VALIDATION_ERROR with every violation", async () => {
    const s = await h.paidSession(1_000n);
    const missing = await errorOf(() => createRefund(h.deps, { ...s, type: undefined }));
    expect(missing.violations.map((v) => [v.field, v.code])).toEqual([["refund_type", "required"]]);
    const precision = await errorOf(() => createRefund(h.deps, { ...s, type: "PARTIAL", amount: "0.50" }));
    expect(precision.violations).toEqual([
      expect.objectContaining({ field: "amount", code: "invalid_precision" }),
    ]);
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(0n);
  });
});

describe("manual refunds", () => {
  async function pendingRefund() {
    h.setSettled(true);
    const s = await h.paidSession(6_000n);
    await h.acquirer.refund({
      terminal: h.terminal,
      acquirerOrderId: s.acquirerOrderId,
      amountMinor: 6_000n,
      externalRefundId: "outside",
    });
    return { s, refund: await createRefund(h.deps, { ...s, type: "PARTIAL", amount: "2.000" }) };
  }

  it("when operations mark a manual refund FAILED (twice), then its amount is given back once", async () => {
    const { s, refund } = await pendingRefund();
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(2_000n);
    const resolved = await resolveManualRefund(h.deps, {
      refundId: refund.id,
      outcome: "FAILED",
      note: "acquirer says no",
    });
    expect(resolved).toMatchObject({ status: "FAILED", resolutionNote: "acquirer says no" });
    await resolveManualRefund(h.deps, { refundId: refund.id, outcome: "FAILED", note: "again" });
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(0n);
    expect((await listManualRefunds(h.deps, 500)).map((r) => r.id)).not.toContain(refund.id);
  });

  it("when operations mark a manual refund SUCCEEDED, then it keeps its amount and cannot then fail", async () => {
    const { s, refund } = await pendingRefund();
    expect(
      await resolveManualRefund(h.deps, { refundId: refund.id, outcome: "SUCCEEDED", note: "done by phone" }),
    ).toMatchObject({ status: "SUCCEEDED", automated: false });
    expect(
      (await errorOf(() => resolveManualRefund(h.deps, { refundId: refund.id, outcome: "FAILED", note: "" })))
        .reason,
    ).toBe("INVALID_STATE");
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(2_000n);
    expect(
      (
        await errorOf(() =>
          resolveManualRefund(h.deps, { refundId: "re_missing", outcome: "FAILED", note: "" }),
        )
      ).reason,
    ).toBe("NOT_FOUND");
  });

  it("when the page size is out of range, then VALIDATION_ERROR", async () => {
    expect((await errorOf(() => listManualRefunds(h.deps, 0))).reason).toBe("VALIDATION_ERROR");
  });
});
