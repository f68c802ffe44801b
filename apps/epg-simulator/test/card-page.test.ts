import { createEpgAcquirer } from "@gateway/acquirer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { futureExpiry, loadCardForm, submitCard } from "./support/card-page-client.js";
import {
  RETURN_URL,
  type RunningSimulator,
  registerOrder,
  startSimulator,
} from "./support/simulator-fixture.js";

// The simulator's card page: an accessible, script-free form under a strict policy, which
// refuses bad card input on the page itself and never writes a card number back.

let sim: RunningSimulator;
const acquirer = createEpgAcquirer({ timeoutMs: 5_000 });

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.server.close();
});

function stateOf(acquirerOrderId: string): string | undefined {
  return sim.simulator.ledger().find((e) => e.acquirerOrderId === acquirerOrderId)?.state;
}

async function post(formUrl: string, fields: Record<string, string>): Promise<Response> {
  return fetch(formUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

describe("when the buyer opens the card page", () => {
  it("then it is a labelled form with autocomplete tokens, the amount and the order number, and no scripts", async () => {
    const order = await registerOrder(acquirer, sim.terminal, {
      orderNumber: "SHOP-42",
      amountMinor: 34_500n,
    });
    const { html, response } = await loadCardForm(order.formUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);

    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' https://shop.example");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");

    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain("SHOP-42");
    expect(html).toContain("34.500 TND");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|href)="https?:/i);
    for (const token of ["cc-name", "cc-number", "cc-exp", "cc-csc"]) {
      const input = new RegExp(`<input [^>]*autocomplete="${token}"[^>]*>`).exec(html)?.[0] ?? "";
      const id = /\sid="([^"]+)"/.exec(input)?.[1];
      expect(id, `input ${token}`).toBeDefined();
      expect(html).toContain(`<label for="${id}">`);
    }
    expect(html).toMatch(/<form method="post" action="[^"]+"/);
    expect(html).toMatch(/<button type="submit">Pay 34\.500 TND<\/button>/);
  });

  it("then the page follows the order's language, right to left for Arabic", async () => {
    const fr = await registerOrder(acquirer, sim.terminal, { language: "fr" });
    expect((await loadCardForm(fr.formUrl)).html).toContain("Paiement par carte");
    const ar = await registerOrder(acquirer, sim.terminal, { language: "ar" });
    expect((await loadCardForm(ar.formUrl)).html).toContain('<html lang="ar" dir="rtl">');
  });

  it("then an unknown payment page is a 404 page", async () => {
    const res = await fetch(`${sim.server.url}/epg/payment/not-an-order`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("does not exist");
  });
});

describe("when the card input is wrong", () => {
  it.each([
    [
      "a number failing the Luhn check",
      { number: "4242424242424241" },
      "card_number",
      "Enter a valid card number.",
    ],
    [
      "a past expiry date",
      { number: "4242424242424242", expiry: "01/20" },
      "expiry",
      "This card has expired.",
    ],
    [
      "a malformed expiry date",
      { number: "4242424242424242", expiry: "13/40" },
      "expiry",
      "Enter the expiry date as MM/YY.",
    ],
    [
      "a two-digit CVC",
      { number: "4242424242424242", cvc: "12" },
      "cvc",
      "Enter the card&#39;s security code.",
    ],
  ])(
    "then %s is shown on the page, without redirect and without echoing the card",
    async (_what, card, field, message) => {
      const order = await registerOrder(acquirer, sim.terminal);
      const res = await submitCard(order.formUrl, card);
      expect(res.status).toBe(422);
      expect(res.headers.get("location")).toBeNull();
      const html = await res.text();
      expect(html).toContain(message);
      expect(html).toContain('role="alert"');
      expect(html).toMatch(new RegExp(`<input id="${field}"[^>]*aria-invalid="true"`));
      expect(html).toMatch(new RegExp(`<input id="${field}"[^>]*aria-describedby="[^"]*${field}-error`));
      expect(html).not.toContain(card.number);
      expect(stateOf(order.acquirerOrderId)).toBe("CREATED");
    },
  );

  it("then a missing name is asked for and the name and expiry already typed are kept", async () => {
    const order = await registerOrder(acquirer, sim.terminal);
    const expiry = futureExpiry();
    const res = await post(order.formUrl, {
      cardholder_name: "",
      card_number: "4242424242424242",
      expiry,
      cvc: "123",
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("Enter the name shown on the card.");
    expect(html).toContain(`value="${expiry}"`);
    expect(html).not.toContain("4242424242424242");
  });

  it("then an oversized form is refused", async () => {
    const order = await registerOrder(acquirer, sim.terminal);
    const res = await post(order.formUrl, { cardholder_name: "x".repeat(20_000) });
    expect(res.status).toBe(413);
    expect(stateOf(order.acquirerOrderId)).toBe("CREATED");
  });
});

describe("when the order is already paid", () => {
  it("then the page says so, links back to the merchant and refuses a second card", async () => {
    const order = await registerOrder(acquirer, sim.terminal);
    expect((await submitCard(order.formUrl, { number: "4242424242424242" })).status).toBe(303);

    const page = await fetch(order.formUrl);
    const html = await page.text();
    expect(html).toContain("This order has already been paid.");
    expect(html).toContain(`href="${RETURN_URL}?orderId=${order.acquirerOrderId}"`);
    expect(html).not.toContain("<form");

    const second = await post(order.formUrl, {
      cardholder_name: "A",
      card_number: "5555555555554444",
      expiry: futureExpiry(),
      cvc: "123",
    });
    expect(second.status).toBe(409);
    const status = await acquirer.getOrderStatus({
      terminal: sim.terminal,
      acquirerOrderId: order.acquirerOrderId,
    });
    expect(status.card?.lastFour).toBe("4242");
  });
});

describe("the standalone server", () => {
  it("then answers health checks and 404 outside its paths", async () => {
    expect((await fetch(`${sim.server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${sim.server.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${sim.server.url}/elsewhere`)).status).toBe(404);
    const get = await fetch(`${sim.terminal.baseUrl}/register.do`);
    expect(get.status).toBe(405);
  });
});
