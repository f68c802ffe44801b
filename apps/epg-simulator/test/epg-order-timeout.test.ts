import { createEpgAcquirer } from "@gateway/acquirer";
import { ManualClock } from "@gateway/platform";
import { afterEach, describe, expect, it } from "vitest";
import { loadCardForm, submitCard } from "./support/card-page-client.js";
import { type RunningSimulator, registerOrder, startSimulator } from "./support/simulator-fixture.js";

// An order nobody pays is declined by the acquirer's timeout: the port reports ABANDONED.

let sim: RunningSimulator | undefined;

afterEach(async () => {
  await sim?.server.close();
  sim = undefined;
});

describe("when the buyer never pays", () => {
  it("then after the order timeout the order is ABANDONED and the card page no longer takes a card", async () => {
    const clock = new ManualClock(new Date("2026-03-10T09:00:00Z"));
    sim = await startSimulator({ clock, orderTimeoutMs: 20 * 60_000 });
    const acquirer = createEpgAcquirer({ timeoutMs: 5_000, clock });
    const order = await registerOrder(acquirer, sim.terminal, { sessionTimeoutSecs: 3600 });

    clock.advance(19 * 60_000);
    const stillOpen = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(stillOpen).toMatchObject({ state: "CREATED", orderStatusCode: 0 });

    clock.advance(60_000);
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status).toMatchObject({
      state: "ABANDONED",
      orderStatusCode: 6,
      actionCode: -2007,
      failureCode: "session_timeout",
    });
    expect(status.card).toBeUndefined();

    const page = await fetch(order.formUrl);
    const html = await page.text();
    expect(html).toContain("The time to pay this order has run out.");
    expect(html).not.toContain("<form");
    const late = await fetch(order.formUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        cardholder_name: "A",
        card_number: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
      }),
      redirect: "manual",
    });
    expect(late.status).toBe(409);
    expect(sim.simulator.ledger()[0]).toMatchObject({ state: "ABANDONED", depositedMinor: 0n });
  });

  it("then a shorter sessionTimeoutSecs on register shortens the payment window", async () => {
    const clock = new ManualClock(new Date("2026-03-10T09:00:00Z"));
    sim = await startSimulator({ clock });
    const acquirer = createEpgAcquirer({ timeoutMs: 5_000, clock });
    const order = await registerOrder(acquirer, sim.terminal, { sessionTimeoutSecs: 60 });
    clock.advance(61_000);
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status.state).toBe("ABANDONED");
  });

  it("then with a tiny real-time timeout the order expires on its own", async () => {
    sim = await startSimulator({ orderTimeoutMs: 50 });
    const acquirer = createEpgAcquirer({ timeoutMs: 5_000 });
    const order = await registerOrder(acquirer, sim.terminal);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status.state).toBe("ABANDONED");
  });

  it("then an order paid within the window is not abandoned later", async () => {
    const clock = new ManualClock(new Date("2026-03-10T09:00:00Z"));
    sim = await startSimulator({ clock, orderTimeoutMs: 60_000 });
    const acquirer = createEpgAcquirer({ timeoutMs: 5_000, clock });
    const order = await registerOrder(acquirer, sim.terminal);
    expect((await loadCardForm(order.formUrl)).response.status).toBe(200);
    const res = await submitCard(order.formUrl, { number: "4242424242424242" });
    expect(res.status).toBe(303);
    clock.advance(10 * 60_000);
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status.state).toBe("DEPOSITED");
  });
});
