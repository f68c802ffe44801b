import { type Acquirer, createEpgAcquirer } from "@gateway/acquirer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitCard } from "./support/card-page-client.js";
import {
  FAIL_URL,
  gatewayErrorOf,
  orderNumber,
  RETURN_URL,
  type RunningSimulator,
  registerOrder,
  startSimulator,
  toJson,
} from "./support/simulator-fixture.js";

// The EPG adapter against the simulator over real HTTP: register, the buyer pays on the card
// page (a no-JavaScript form post), then the gateway asks for the status.

let sim: RunningSimulator;
let acquirer: Acquirer;
/** Every body the acquirer answered the adapter with, to check no card number leaks. */
const answers: string[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const text = await res.clone().text();
  answers.push(text);
  return res;
};

beforeAll(async () => {
  sim = await startSimulator({
    lateApprovalDelayMs: 300,
    timeoutCardDelayMs: 2_000,
    credentials: [
      { username: "sim-merchant", password: "sim-password" },
      { username: "other-merchant", password: "other-password" },
    ],
  });
  acquirer = createEpgAcquirer({ timeoutMs: 5_000, fetchImpl: recordingFetch });
});

afterAll(async () => {
  await sim.server.close();
});

async function paidOrder(cardNumber: string) {
  const order = await registerOrder(acquirer, sim.terminal);
  const res = await submitCard(order.formUrl, { number: cardNumber });
  return { order, res };
}

describe("when the buyer pays with an approved test card", () => {
  it("then a Visa payment is deposited and only brand, last four and country come back", async () => {
    const { order, res } = await paidOrder("4242424242424242");
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(RETURN_URL);
    expect(location.searchParams.get("orderId")).toBe(order.acquirerOrderId);

    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status).toMatchObject({
      acquirerOrderId: order.acquirerOrderId,
      state: "DEPOSITED",
      orderStatusCode: 2,
      actionCode: 0,
      amountMinor: 34_000n,
      depositedMinor: 34_000n,
      refundedMinor: 0n,
      settled: false,
      card: { brand: "visa", lastFour: "4242", country: "US" },
    });
    expect(status.failureCode).toBeUndefined();
  });

  it("then a Mastercard payment reports the mastercard brand", async () => {
    const { order, res } = await paidOrder("5555555555554444");
    expect(res.status).toBe(303);
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status.state).toBe("DEPOSITED");
    expect(status.card).toEqual({ brand: "mastercard", lastFour: "4444", country: "US" });
  });
});

describe("when the card is declined", () => {
  it.each([
    ["4000000000000002", "card_declined", 100],
    ["4000000000009995", "insufficient_funds", 116],
    ["4000000000000069", "expired_card", 101],
  ])(
    "then card %s sends the buyer to the fail URL and the status says %s",
    async (number, failureCode, actionCode) => {
      const { order, res } = await paidOrder(number);
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get("location") ?? "");
      expect(`${location.origin}${location.pathname}`).toBe(FAIL_URL);
      expect(location.searchParams.get("orderId")).toBe(order.acquirerOrderId);

      const status = await acquirer.getOrderStatus({
        terminal: sim.terminal,
        acquirerOrderId: order.acquirerOrderId,
      });
      expect(status).toMatchObject({
        state: "DECLINED",
        orderStatusCode: 6,
        actionCode,
        failureCode,
        depositedMinor: 0n,
      });
      expect(status.card?.lastFour).toBe(number.slice(-4));
    },
  );
});

describe("when the payment is approved late", () => {
  it("then the order is pending at first and deposited after the delay", async () => {
    const { order, res } = await paidOrder("4000000000003220");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain(RETURN_URL);

    const pending = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(pending).toMatchObject({ state: "CREATED", orderStatusCode: 5, depositedMinor: 0n });
    expect(pending.failureCode).toBeUndefined();

    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(later).toMatchObject({
      state: "DEPOSITED",
      orderStatusCode: 2,
      depositedMinor: 34_000n,
      card: { brand: "visa", lastFour: "3220" },
    });
  });
});

describe("when the acquirer does not answer in time", () => {
  it("then the status call fails as PROCESSOR_UNAVAILABLE after the adapter's timeout", async () => {
    const { order, res } = await paidOrder("4000000000000119");
    expect(res.status).toBe(303);
    const impatient = createEpgAcquirer({ timeoutMs: 300 });
    const started = Date.now();
    const err = await gatewayErrorOf(
      impatient.getOrderStatus({ terminal: sim.terminal, acquirerOrderId: order.acquirerOrderId }),
    );
    const elapsed = Date.now() - started;
    expect(err.reason).toBe("PROCESSOR_UNAVAILABLE");
    expect(err.message).toBe("The acquirer did not answer in time.");
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1_500);
  });

  it("then a patient caller eventually learns the payment was declined by a processing timeout", async () => {
    const { order } = await paidOrder("4000000000000119");
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status).toMatchObject({ state: "DECLINED", failureCode: "processor_timeout" });
  });
});

describe("when the terminal or the order is wrong", () => {
  it("then bad credentials are TERMINAL_REJECTED on every operation", async () => {
    const wrong = { ...sim.terminal, password: "not-the-password" };
    const register = await gatewayErrorOf(registerOrder(acquirer, wrong));
    expect(register.reason).toBe("TERMINAL_REJECTED");
    expect(register.metadata).toMatchObject({
      acquirer_error_code: "5",
      acquirer_message: "Access denied",
      acquirer_operation: "register",
    });

    const { order } = await paidOrder("4242424242424242");
    const status = await gatewayErrorOf(
      acquirer.getOrderStatus({ terminal: wrong, acquirerOrderId: order.acquirerOrderId }),
    );
    expect(status.reason).toBe("TERMINAL_REJECTED");
    const refund = await gatewayErrorOf(
      acquirer.refund({
        terminal: wrong,
        acquirerOrderId: order.acquirerOrderId,
        amountMinor: 1n,
        externalRefundId: "re_x",
      }),
    );
    expect(refund.reason).toBe("TERMINAL_REJECTED");
  });

  it("then a repeated order number is refused for the same terminal but not for another one", async () => {
    const number = orderNumber();
    await registerOrder(acquirer, sim.terminal, { orderNumber: number });
    const err = await gatewayErrorOf(registerOrder(acquirer, sim.terminal, { orderNumber: number }));
    expect(err.reason).toBe("CONFLICT");
    expect(err.metadata.acquirer_error_code).toBe("1");

    const other = { ...sim.terminal, username: "other-merchant", password: "other-password" };
    await expect(registerOrder(acquirer, other, { orderNumber: number })).resolves.toMatchObject({
      acquirerOrderId: expect.any(String),
    });
  });

  it("then an unknown order, or another terminal's order, is NOT_FOUND", async () => {
    const unknown = await gatewayErrorOf(
      acquirer.getOrderStatus({
        terminal: sim.terminal,
        acquirerOrderId: "00000000-0000-0000-0000-000000000000",
      }),
    );
    expect(unknown.reason).toBe("NOT_FOUND");
    expect(unknown.metadata.acquirer_error_code).toBe("6");

    const { order } = await paidOrder("4242424242424242");
    const other = { ...sim.terminal, username: "other-merchant", password: "other-password" };
    const foreign = await gatewayErrorOf(
      acquirer.getOrderStatus({ terminal: other, acquirerOrderId: order.acquirerOrderId }),
    );
    expect(foreign.reason).toBe("NOT_FOUND");
  });

  it("then an amount of zero is refused before anything is sent", async () => {
    const err = await gatewayErrorOf(registerOrder(acquirer, sim.terminal, { amountMinor: 0n }));
    expect(err.reason).toBe("VALIDATION_ERROR");
    expect(err.violations[0]).toMatchObject({ field: "amount", code: "invalid_value" });
  });
});

describe("card data", () => {
  it("then the full card number never appears in a protocol answer, the ledger or a returned status", async () => {
    const { order } = await paidOrder("4242424242424242");
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    const everything = [...answers, toJson(sim.simulator.ledger()), toJson(status)].join("\n");
    expect(answers.length).toBeGreaterThan(0);
    expect(everything).not.toContain("4242424242424242");
    // The returned status keeps the last four, never the masked PAN.
    expect(toJson(status)).not.toContain("424242**4242");
    expect(toJson(status)).toContain('"lastFour":"4242"');
  });
});
