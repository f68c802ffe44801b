import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { type LocalServer, startFerretDb, startNatsServer } from "@gateway/testkit";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  launchChromium,
  MERCHANT_CANCEL_HEADING,
  MERCHANT_THANKS_HEADING,
  type MerchantSite,
  startMerchantSite,
} from "../e2e/support/browser.js";
import { type MerchantApi, merchantApi } from "../e2e/support/http.js";

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "../../artifacts/screenshots");

// The whole distributed stack (one process per service, the EPG simulator as its own process)
// driven by headless Chromium: what a buyer's browser does against what an operator runs.
let gw: DistributedGateway;
let api: MerchantApi;
let merchant: MerchantSite;
let browser: Browser;
const ownServers: LocalServer[] = [];
let references = 0;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The browser project has no global setup: use the dev servers when given, else start our own.
  const mongodbUrl = process.env.MONGODB_URL ?? (await own(startFerretDb())).url;
  const natsUrl = process.env.NATS_URL ?? (await own(startNatsServer())).url;
  gw = await startDistributedGateway({
    mongodbUrl,
    natsUrl,
    databasePrefix: `browser_dist_${Date.now().toString(36)}`,
  });
  api = merchantApi(gw.edgeUrl, gw.demoTestKey!);
  merchant = await startMerchantSite();
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await merchant?.close();
  await gw?.stop();
  for (const server of ownServers.reverse()) await server.stop();
}, 60_000);

async function own(starting: Promise<LocalServer>): Promise<LocalServer> {
  const server = await starting;
  ownServers.push(server);
  return server;
}

async function createSession(
  fields: { max_attempts?: number } = {},
): Promise<{ id: string; checkoutUrl: string }> {
  const created = await api.createSession({
    merchant_reference: `browser-dist-${Date.now().toString(36)}-${++references}`,
    amount: "42.000",
    description: "Livres pour la rentrée",
    return_url: `${merchant.url}/thanks`,
    cancel_url: `${merchant.url}/cancel`,
    ...fields,
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id, checkoutUrl: created.body.checkout_url };
}

/** On the simulator's card page (its own process and origin): fill the card by its labels and pay. */
async function payOnCardPage(page: Page, number: string): Promise<void> {
  await page.waitForURL(/\/epg\/payment\//);
  expect(new URL(page.url()).origin).not.toBe(new URL(gw.edgeUrl).origin);
  await page.getByLabel("Name on card").fill("Amal Ben Salah");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry date").fill("12/39");
  await page.getByLabel("Security code (CVC)").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
}

async function pressPay(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Pay 42.000 TND", exact: true }).click();
}

for (const javaScriptEnabled of [true, false]) {
  describe(`distributed hosted checkout in Chromium, JavaScript ${javaScriptEnabled ? "enabled" : "disabled"}`, () => {
    let context: BrowserContext | undefined;

    afterEach(async () => {
      await context?.close();
      context = undefined;
    });

    async function newPage(): Promise<Page> {
      context = await browser.newContext({
        javaScriptEnabled,
        locale: "en-GB",
        viewport: { width: 480, height: 900 },
      });
      return context.newPage();
    }

    it("pays end to end: checkout page -> Pay -> simulator card page -> back to the merchant, who sees SUCCEEDED", async () => {
      const session = await createSession();
      const page = await newPage();
      const response = await page.goto(session.checkoutUrl);
      expect(response?.status()).toBe(200);
      await pressPay(page);
      await payOnCardPage(page, "4242 4242 4242 4242");
      await page.waitForURL(`${merchant.url}/thanks`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(MERCHANT_THANKS_HEADING);

      const seen = await api.getSession(session.id);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.status).toBe("SUCCEEDED");
      expect(seen.body.attempts).toHaveLength(1);
      expect(seen.body.attempts[0]).toMatchObject({
        attempt_number: 1,
        status: "SUCCEEDED",
        card_brand: "visa",
        card_last_four: "4242",
      });
    });

    it("after a decline, pays on the same session: attempt 1 FAILED card_declined, attempt 2 SUCCEEDED", async () => {
      const session = await createSession({ max_attempts: 3 });
      const page = await newPage();
      await page.goto(session.checkoutUrl);
      await pressPay(page);
      await payOnCardPage(page, "4000 0000 0000 0002");
      // A decline with attempts left comes back to the checkout page, which explains it.
      await page.waitForURL((url) => url.toString().startsWith(session.checkoutUrl));
      const alert = page.getByRole("alert");
      expect(await alert.textContent()).toContain("Your card was declined.");
      expect(await alert.textContent()).toContain("2");
      await pressPay(page);
      await payOnCardPage(page, "5555 5555 5555 4444");
      await page.waitForURL(`${merchant.url}/thanks`);

      const seen = (await api.getSession(session.id)).body;
      expect(seen.status).toBe("SUCCEEDED");
      expect(seen.attempts).toHaveLength(2);
      expect(seen.attempts[0]).toMatchObject({
        attempt_number: 1,
        status: "FAILED",
        failure_code: "card_declined",
      });
      expect(seen.attempts[1]).toMatchObject({
        attempt_number: 2,
        status: "SUCCEEDED",
        card_brand: "mastercard",
        card_last_four: "4444",
      });
    });

    it("when the attempts run out (max_attempts 2, two declines) the session FAILS and the buyer lands on cancel_url", async () => {
      const session = await createSession({ max_attempts: 2 });
      const page = await newPage();
      await page.goto(session.checkoutUrl);
      await pressPay(page);
      await payOnCardPage(page, "4000 0000 0000 0002");
      await page.waitForURL((url) => url.toString().startsWith(session.checkoutUrl));
      await pressPay(page);
      await payOnCardPage(page, "4000 0000 0000 0002");
      // The return page forwards itself (meta refresh, no script) to the merchant's cancel_url.
      await page.waitForURL(`${merchant.url}/cancel`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(MERCHANT_CANCEL_HEADING);

      const seen = (await api.getSession(session.id)).body;
      expect(seen.status).toBe("FAILED");
      expect(
        seen.attempts.map((a: { status: string; failure_code: string }) => [a.status, a.failure_code]),
      ).toEqual([
        ["FAILED", "card_declined"],
        ["FAILED", "card_declined"],
      ]);
    });

    it("cancel takes the buyer to cancel_url and leaves the session payable", async () => {
      const session = await createSession();
      const page = await newPage();
      await page.goto(session.checkoutUrl);
      await page.getByRole("button", { name: /^Cancel/ }).click();
      await page.waitForURL(`${merchant.url}/cancel`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(MERCHANT_CANCEL_HEADING);
      const seen = (await api.getSession(session.id)).body;
      expect(seen.attempts).toHaveLength(0);
      expect(["CREATED", "PENDING"]).toContain(seen.status);
    });
  });
}

describe("distributed checkout page screenshots", () => {
  const pages = [
    { lang: "en", dir: "ltr", pay: "Pay 42.000 TND" },
    { lang: "fr", dir: "ltr", pay: "Payer 42,000 TND" },
    { lang: "ar", dir: "rtl", pay: "ادفع 42.000 TND" },
  ] as const;

  for (const expected of pages) {
    it(`renders the checkout page in ${expected.lang} (?lang=) and saves a screenshot`, async () => {
      const session = await createSession();
      const context = await browser.newContext({ locale: "en-GB", viewport: { width: 480, height: 900 } });
      try {
        const page = await context.newPage();
        const url = new URL(session.checkoutUrl);
        url.searchParams.set("lang", expected.lang);
        const response = await page.goto(url.toString());
        expect(response?.status()).toBe(200);
        expect(await page.getAttribute("html", "lang")).toBe(expected.lang);
        expect(await page.getAttribute("html", "dir")).toBe(expected.dir);
        expect(await page.getByRole("button", { name: expected.pay, exact: true }).count()).toBe(1);
        await page.screenshot({
          path: join(SCREENSHOTS, `distributed-checkout-${expected.lang}.png`),
          fullPage: true,
        });
      } finally {
        await context.close();
      }
    });
  }
});
