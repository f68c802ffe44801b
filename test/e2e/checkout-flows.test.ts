import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminApi, adminApi, type MerchantApi, merchantApi, request } from "./support/http.js";
import { createVerifiedMerchant } from "./support/merchants.js";
import { postPayForm, readPayForm } from "./support/pay-form.js";
import { payWithCard, startPayment } from "./support/pay-with-card.js";
import { expectProblem } from "./support/problem.js";

const ADMIN_TOKEN = "e2e-checkout-flows-admin-token-0123456789";

/** POSTs the checkout page's Pay form like a browser without JavaScript; returns the answer. */
async function pressPay(
  checkoutUrl: string,
): Promise<{ status: number; location: string | null; page: string }> {
  return postPayForm(await readPayForm(checkoutUrl));
}

async function pollSession(
  api: MerchantApi,
  id: string,
  done: (s: any) => boolean,
  timeoutMs = 15_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = (await api.getSession(id)).body;
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

describe("hosted checkout flows against the distributed stack", () => {
  let gw: DistributedGateway;
  let api: MerchantApi;
  let admin: AdminApi;
  let simulatorTerminalUrl: string;
  let references = 0;
  const errorsUrl = () => `${gw.edgeUrl}/errors`;
  const reference = () => `flows-${Date.now().toString(36)}-${++references}`;

  beforeAll(async () => {
    gw = await startDistributedGateway({
      mongodbUrl: process.env.MONGODB_URL,
      natsUrl: process.env.NATS_URL,
      databasePrefix: `e2e_flows_${Date.now().toString(36)}`,
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
      serviceEnv: {
        "epg-simulator": { EPG_SIM_LATE_APPROVAL_DELAY: "1s", EPG_SIM_TIMEOUT_CARD_DELAY: "3s" },
        sessions: { GATEWAY_ACQUIRER_TIMEOUT: "1s" },
      },
    });
    api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
    admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
    // The simulator's address, as the demo merchant's terminal knows it: its card page's origin.
    const probe = await api.createSession({ merchant_reference: reference(), amount: "1.000" });
    expect(probe.status, probe.text).toBe(201);
    const { cardPageUrl } = await startPayment(probe.body.checkout_url);
    simulatorTerminalUrl = `${new URL(cardPageUrl).origin}/epg/rest`;
  });

  afterAll(async () => {
    await gw?.stop();
  });

  describe("POST /sessions/:id/checkout/", () => {
    it("mints a working link, refuses the 6th unexpired one (the session's first link counts), and refuses a SUCCEEDED session", async () => {
      const created = await api.createSession({ merchant_reference: reference(), amount: "12.500" });
      expect(created.status, created.text).toBe(201);
      const checkout = (id: string) => api.createCheckoutLink(id);

      const minted = await checkout(created.body.id);
      expect(minted.status, minted.text).toBe(201);
      expect(Object.keys(minted.body).sort()).toEqual(["checkout_url", "expires_at"]);
      expect(minted.body.checkout_url).not.toBe(created.body.checkout_url);
      expect(Number.isNaN(Date.parse(minted.body.expires_at))).toBe(false);
      expect(Date.parse(minted.body.expires_at)).toBeGreaterThan(Date.now());
      const page = await fetch(minted.body.checkout_url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("12.500");
      // The new link is the session's current checkout_url; the first one still works.
      expect((await api.getSession(created.body.id)).body.checkout_url).toBe(minted.body.checkout_url);
      expect((await fetch(created.body.checkout_url)).status).toBe(200);

      // Links: the session's own + 1 so far; 3 more make 5, the default limit.
      for (let i = 0; i < 3; i++) expect((await checkout(created.body.id)).status).toBe(201);
      expectProblem(await checkout(created.body.id), 422, "checkout-limit-exceeded", errorsUrl());

      // Paying through any of the links ends the session: no more links.
      await payWithCard(minted.body.checkout_url, { number: "4242424242424242" });
      expect((await api.getSession(created.body.id)).body.status).toBe("SUCCEEDED");
      expectProblem(await checkout(created.body.id), 409, "session-terminal", errorsUrl());
    });

    it("answers 404 for a session of another account or an unknown id", async () => {
      const res = await api.createCheckoutLink("ses_doesnotexist000000000000");
      expectProblem(res, 404, "not-found", errorsUrl());
    });
  });

  describe("merchant terminal configuration problems are 422s, never 500", () => {
    async function merchantWithTerminal(
      name: string,
      terminal?: { username: string; active: boolean },
    ): Promise<{ id: string; api: MerchantApi }> {
      const merchant = await createVerifiedMerchant(admin, name, false);
      if (terminal) await setTestTerminal(merchant.id, terminal);
      return { id: merchant.id, api: merchantApi(gw.edgeUrl, merchant.testKey) };
    }

    async function setTestTerminal(
      merchantId: string,
      terminal: { username: string; active: boolean },
    ): Promise<void> {
      const set = await request(`${gw.edgeUrl}/admin/v1/merchants/${merchantId}/terminals/test`, {
        method: "PUT",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: {
          base_url: simulatorTerminalUrl,
          username: terminal.username,
          password: "sim-password",
          active: terminal.active,
        },
      });
      expect(set.status, set.text).toBe(200);
      expect(set.text).not.toContain("sim-password");
    }

    // Issue 15 item 10: the merchant hears it at create (it used to be a 201 and a checkout_url
    // that only showed the buyer a 422 page).
    const atCreate = [
      { label: "no test terminal", terminal: undefined, problem: "no-terminal-configured" },
      {
        label: "an inactive terminal",
        terminal: { username: "sim-merchant", active: false },
        problem: "terminal-inactive",
      },
    ] as const;
    for (const c of atCreate) {
      it(`a create with ${c.label} is 422 ${c.problem} and stores nothing`, async () => {
        const shop = await merchantWithTerminal(`Shop ${c.problem}`, c.terminal);
        const merchant_reference = reference();
        const created = await shop.api.createSession({ merchant_reference, amount: "10.000" });
        expectProblem(created, 422, c.problem, errorsUrl());
        expect(created.body.checkout_url).toBeUndefined();
        expect((await shop.api.listSessions({ merchant_reference })).body.data).toEqual([]);
      });
    }

    it("Pay after the terminal went inactive shows a 422 page and starts nothing (the buyer's page is the second line)", async () => {
      const shop = await merchantWithTerminal("Shop deactivated later", {
        username: "sim-merchant",
        active: true,
      });
      const created = await shop.api.createSession({ merchant_reference: reference(), amount: "10.000" });
      expect(created.status, created.text).toBe(201);
      await setTestTerminal(shop.id, { username: "sim-merchant", active: false });
      const paid = await pressPay(created.body.checkout_url);
      expect(paid.status, paid.page.slice(0, 500)).toBe(422);
      expect(paid.location).toBeNull();
      expect(paid.page).toContain("Card payments are unavailable");
      const session = (await shop.api.getSession(created.body.id)).body;
      expect(session.status).toBe("CREATED");
      expect(session.attempts).toEqual([]);
    });

    it("Pay with wrong terminal credentials (terminal-rejected) shows a 422 page and starts nothing", async () => {
      const shop = await merchantWithTerminal("Shop TERMINAL_REJECTED", { username: "nobody", active: true });
      const created = await shop.api.createSession({ merchant_reference: reference(), amount: "10.000" });
      expect(created.status, created.text).toBe(201);
      const paid = await pressPay(created.body.checkout_url);
      expect(paid.status, paid.page.slice(0, 500)).toBe(422);
      expect(paid.location).toBeNull();
      expect(paid.page).toContain("Card payments are unavailable");
      const session = (await shop.api.getSession(created.body.id)).body;
      expect(session.status).not.toBe("FAILED");
      expect(session.status).not.toBe("SUCCEEDED");
    });
  });

  describe("acquirer outcomes", () => {
    it("a processor timeout shows the 'confirming your payment' page (502/503), never a 500, and does not fail the session", async () => {
      const created = await api.createSession({
        merchant_reference: reference(),
        amount: "20.000",
        max_attempts: 3,
      });
      expect(created.status).toBe(201);
      const run = await payWithCard(created.body.checkout_url, { number: "4000000000000119" });
      expect([502, 503], run.returnPage.slice(0, 500)).toContain(run.returnStatus);
      expect(run.returnPage).toContain("We are confirming your payment");
      const session = (await api.getSession(created.body.id)).body;
      expect(session.status).not.toBe("FAILED");
      expect(session.attempts).toHaveLength(1);
      expect(session.attempts[0].status).not.toBe("FAILED");
    });

    it("a late approval ends SUCCEEDED once the acquirer approves", async () => {
      const created = await api.createSession({ merchant_reference: reference(), amount: "30.000" });
      expect(created.status).toBe(201);
      const run = await payWithCard(created.body.checkout_url, { number: "4000000000003220" });
      expect(run.returnStatus).not.toBe(500);
      const session = await pollSession(api, created.body.id, (s) => s.status === "SUCCEEDED");
      expect(session.status).toBe("SUCCEEDED");
      expect(session.attempts).toHaveLength(1);
      expect(session.attempts[0]).toMatchObject({ status: "SUCCEEDED", card_last_four: "3220" });
    });

    for (const declined of [
      { number: "4000000000009995", code: "insufficient_funds" },
      { number: "4000000000000069", code: "expired_card" },
    ]) {
      it(`a ${declined.code} decline is recorded on the attempt and the session stays payable`, async () => {
        const created = await api.createSession({
          merchant_reference: reference(),
          amount: "15.000",
          max_attempts: 3,
        });
        expect(created.status).toBe(201);
        const run = await payWithCard(created.body.checkout_url, { number: declined.number });
        expect(run.returnStatus).toBe(303);
        const session = (await api.getSession(created.body.id)).body;
        expect(session.status).not.toBe("FAILED");
        expect(session.attempts).toHaveLength(1);
        expect(session.attempts[0]).toMatchObject({
          attempt_number: 1,
          status: "FAILED",
          failure_code: declined.code,
        });
      });
    }
  });
});
