import { type Acquirer, createEpgAcquirer } from "@gateway/acquirer";
import { ManualClock } from "@gateway/platform";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { submitCard } from "./support/card-page-client.js";
import {
  gatewayErrorOf,
  type RunningSimulator,
  registerOrder,
  startSimulator,
} from "./support/simulator-fixture.js";

// Refunds and reversals with the acquirer's rules, over real HTTP.

let sim: RunningSimulator;
let acquirer: Acquirer;

beforeAll(async () => {
  sim = await startSimulator();
  acquirer = createEpgAcquirer({ timeoutMs: 5_000 });
});

afterAll(async () => {
  await sim.server.close();
});

async function depositedOrder(target: RunningSimulator, via: Acquirer, amountMinor: bigint): Promise<string> {
  const order = await registerOrder(via, target.terminal, { amountMinor });
  const res = await submitCard(order.formUrl, { number: "4242424242424242" });
  expect(res.status).toBe(303);
  return order.acquirerOrderId;
}

function ledgerOf(target: RunningSimulator, acquirerOrderId: string) {
  const entry = target.simulator.ledger().find((e) => e.acquirerOrderId === acquirerOrderId);
  if (entry === undefined) throw new Error("order missing from the simulator ledger");
  return entry;
}

describe("when a deposited payment is refunded", () => {
  it("then partial refunds add up, an over-refund is refused and a repeated refund id refunds once", async () => {
    const id = await depositedOrder(sim, acquirer, 100_000n);
    const refund = (amountMinor: bigint, externalRefundId: string) =>
      acquirer.refund({ terminal: sim.terminal, acquirerOrderId: id, amountMinor, externalRefundId });

    await refund(30_000n, "re_first");
    await refund(50_000n, "re_second");

    const over = await gatewayErrorOf(refund(30_000n, "re_third"));
    expect(over.reason).toBe("REFUND_FAILED");
    expect(over.metadata.acquirer_error_code).toBe("7");
    expect(over.metadata.acquirer_message).toMatch(/exceeds/i);

    // A retry of the first refund (same id, same amount) is answered as accepted, not refunded again.
    await refund(30_000n, "re_first");

    const status = await acquirer.getOrderStatus({ terminal: sim.terminal, acquirerOrderId: id });
    expect(status).toMatchObject({ state: "REFUNDED", depositedMinor: 100_000n, refundedMinor: 80_000n });

    const entry = ledgerOf(sim, id);
    expect(entry.refundedMinor).toBe(80_000n);
    expect(entry.refunds).toEqual([
      { externalRefundId: "re_first", amountMinor: 30_000n },
      { externalRefundId: "re_second", amountMinor: 50_000n },
    ]);

    // The rest can still be refunded, exactly to the deposited amount.
    await refund(20_000n, "re_rest");
    expect(ledgerOf(sim, id).refundedMinor).toBe(100_000n);
    const nothingLeft = await gatewayErrorOf(refund(1n, "re_one_more"));
    expect(nothingLeft.reason).toBe("REFUND_FAILED");
  });

  it("then reusing a refund id for a different amount is refused", async () => {
    const id = await depositedOrder(sim, acquirer, 10_000n);
    await acquirer.refund({
      terminal: sim.terminal,
      acquirerOrderId: id,
      amountMinor: 1_000n,
      externalRefundId: "re_same",
    });
    const err = await gatewayErrorOf(
      acquirer.refund({
        terminal: sim.terminal,
        acquirerOrderId: id,
        amountMinor: 2_000n,
        externalRefundId: "re_same",
      }),
    );
    expect(err.reason).toBe("REFUND_FAILED");
    expect(ledgerOf(sim, id).refundedMinor).toBe(1_000n);
  });

  it("then an unpaid order cannot be refunded", async () => {
    const order = await registerOrder(acquirer, sim.terminal);
    const err = await gatewayErrorOf(
      acquirer.refund({
        terminal: sim.terminal,
        acquirerOrderId: order.acquirerOrderId,
        amountMinor: 1n,
        externalRefundId: "re_unpaid",
      }),
    );
    expect(err.reason).toBe("REFUND_FAILED");
    expect(err.metadata.acquirer_message).toMatch(/deposited/i);
  });
});

describe("when a payment is reversed", () => {
  it("then before settlement it is reversed once, and a second reversal or a refund is refused", async () => {
    const id = await depositedOrder(sim, acquirer, 5_000n);
    await acquirer.reverse({ terminal: sim.terminal, acquirerOrderId: id });

    const status = await acquirer.getOrderStatus({ terminal: sim.terminal, acquirerOrderId: id });
    expect(status).toMatchObject({ state: "REVERSED", orderStatusCode: 3, depositedMinor: 0n });

    const again = await gatewayErrorOf(acquirer.reverse({ terminal: sim.terminal, acquirerOrderId: id }));
    expect(again.reason).toBe("INVALID_STATE");
    expect(again.metadata.acquirer_message).toMatch(/Reversal is impossible/);

    const refund = await gatewayErrorOf(
      acquirer.refund({
        terminal: sim.terminal,
        acquirerOrderId: id,
        amountMinor: 1n,
        externalRefundId: "re_after_reverse",
      }),
    );
    expect(refund.reason).toBe("REFUND_FAILED");
    expect(ledgerOf(sim, id)).toMatchObject({ state: "REVERSED", depositedMinor: 0n, refundedMinor: 0n });
  });

  it("then an unknown order cannot be reversed", async () => {
    const err = await gatewayErrorOf(
      acquirer.reverse({ terminal: sim.terminal, acquirerOrderId: "no-such-order" }),
    );
    expect(err.reason).toBe("NOT_FOUND");
  });
});

describe("when the payment has been settled", () => {
  let settledSim: RunningSimulator | undefined;

  afterEach(async () => {
    await settledSim?.server.close();
  });

  it("then the status says settled, a reversal is refused and a refund still works", async () => {
    // Noon in Tunis on a working day; the clock then moves past midnight.
    const clock = new ManualClock(new Date("2026-03-10T11:00:00Z"));
    settledSim = await startSimulator({ clock });
    const clocked = createEpgAcquirer({ timeoutMs: 5_000, clock });
    const id = await depositedOrder(settledSim, clocked, 20_000n);

    const sameDay = await clocked.getOrderStatus({ terminal: settledSim.terminal, acquirerOrderId: id });
    expect(sameDay.settled).toBe(false);

    clock.advance(24 * 60 * 60 * 1000);
    const nextDay = await clocked.getOrderStatus({ terminal: settledSim.terminal, acquirerOrderId: id });
    expect(nextDay.settled).toBe(true);

    const reverse = await gatewayErrorOf(
      clocked.reverse({ terminal: settledSim.terminal, acquirerOrderId: id }),
    );
    expect(reverse.reason).toBe("INVALID_STATE");
    expect(reverse.metadata.acquirer_message).toMatch(/Reversal is impossible/);

    await clocked.refund({
      terminal: settledSim.terminal,
      acquirerOrderId: id,
      amountMinor: 20_000n,
      externalRefundId: "re_settled",
    });
    expect(ledgerOf(settledSim, id)).toMatchObject({ state: "REFUNDED", refundedMinor: 20_000n });
  });
});
