import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { type LocalServer, startFerretDb, startNatsServer } from "@gateway/testkit";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../e2e/support/browser.js";
import { type AdminApi, adminApi, type MerchantApi, merchantApi } from "../e2e/support/http.js";
import { payWithCard } from "../e2e/support/pay-with-card.js";
import { seriousAxeViolations } from "./support/axe.js";

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "../../artifacts/dashboard-screenshots");
const ADMIN_TOKEN = "dashboard-browser-admin-token-0123456789";
const OWNER_EMAIL = "owner@librairie.example";
const OWNER_PASSWORD = "a long and private passphrase";
const LANGUAGES = [
  { lang: "en", dir: "ltr", locale: "en-GB" },
  { lang: "fr", dir: "ltr", locale: "fr-FR" },
  { lang: "ar", dir: "rtl", locale: "ar-TN" },
] as const;

// The merchant dashboard on the whole distributed stack, driven by headless Chromium as the
// operator and a merchant's owner use it.
let gw: DistributedGateway;
let admin: AdminApi;
let api: MerchantApi;
let merchantId: string;
let browser: Browser;
const ownServers: LocalServer[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const mongodbUrl = process.env.MONGODB_URL ?? (await own(startFerretDb())).url;
  const natsUrl = process.env.NATS_URL ?? (await own(startNatsServer())).url;
  gw = await startDistributedGateway({
    mongodbUrl,
    natsUrl,
    databasePrefix: `browser_dash_${Date.now().toString(36)}`,
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
  });
  admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
  const merchant = await admin.createMerchant("Librairie Al Kitab");
  expect(merchant.status, merchant.text).toBe(201);
  merchantId = merchant.body.id;
  const terminal = await admin.setTerminal(merchantId, "test", {
    base_url: `${gw.simulatorUrl}/epg/rest`,
    username: "sim-merchant",
    password: "sim-password",
    active: true,
  });
  expect(terminal.status, terminal.text).toBe(200);
  const key = await admin.createKey(merchantId, "test");
  api = merchantApi(gw.edgeUrl, key.body.key);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
  for (const server of ownServers.reverse()) await server.stop();
}, 60_000);

async function own(starting: Promise<LocalServer>): Promise<LocalServer> {
  const server = await starting;
  ownServers.push(server);
  return server;
}

describe("the merchant dashboard in Chromium (distributed stack)", () => {
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function newPage(locale = "en-GB"): Promise<Page> {
    context = await browser.newContext({ locale, viewport: { width: 1200, height: 900 } });
    return context.newPage();
  }

  async function signIn(page: Page): Promise<void> {
    await page.goto(`${gw.edgeUrl}/dashboard/sign-in`);
    await page.getByLabel("Email").fill(OWNER_EMAIL);
    await page.getByLabel("Password").fill(OWNER_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/dashboard\/payments$/);
  }

  it("the operator invites the owner, who sets a password, signs in, and sees a paid session with its attempt and delivery", async () => {
    const invitation = await fetch(`${gw.edgeUrl}/admin/v1/merchants/${merchantId}/dashboard-invitations`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ email: OWNER_EMAIL, role: "owner" }),
    });
    expect(invitation.status).toBe(201);
    const { url } = (await invitation.json()) as { url: string };
    expect(url.startsWith(`${gw.edgeUrl}/dashboard/invitations/inv_`)).toBe(true);

    const page = await newPage();
    await page.goto(url);
    await page.getByLabel("New password").fill(OWNER_PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.waitForURL(/\/dashboard\/sign-in\?invited=1$/);
    await signIn(page);

    const created = await api.createSession({ merchant_reference: "dash-paid-1", amount: "42.000" });
    expect(created.status, created.text).toBe(201);
    const paid = await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    expect(paid.returnStatus).toBe(303);
    await expect
      .poll(async () => (await api.getSession(created.body.id)).body.status, { timeout: 30_000 })
      .toBe("SUCCEEDED");

    await page.goto(`${gw.edgeUrl}/dashboard/payments?status=SUCCEEDED`);
    await page.getByRole("link", { name: "dash-paid-1" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Payment dash-paid-1");
    const attempts = page.getByRole("table", { name: "Payment attempts" });
    expect(await attempts.getByText("SUCCEEDED").count()).toBe(1);
    // The delivery of session.succeeded is listed once the webhooks service recorded it.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page
            .getByRole("table", { name: "Webhook deliveries" })
            .getByText("session.succeeded")
            .count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
  });

  it("a partial refund from the dashboard shows up in the session's refunds", async () => {
    const created = await api.createSession({ merchant_reference: "dash-refund-1", amount: "100.000" });
    await payWithCard(created.body.checkout_url, { number: "4242424242424242" });
    await expect
      .poll(async () => (await api.getSession(created.body.id)).body.status, { timeout: 30_000 })
      .toBe("SUCCEEDED");
    const page = await newPage();
    await signIn(page);
    await page.goto(`${gw.edgeUrl}/dashboard/payments/${created.body.id}`);
    await page.getByLabel("Partial refund").check();
    await page.getByLabel("Amount to refund (TND)").fill("10.500");
    await page.getByRole("button", { name: "Review the refund" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Refund 10.500 TND?");
    await page.getByRole("button", { name: "Yes, refund" }).click();
    await page.waitForURL(/done=refunded$/);
    const refunds = page.getByRole("table", { name: "Refunds" });
    expect(await refunds.getByText("10.500").count()).toBe(1);
  });

  it("setting a EUR rate in currency settings makes a EUR session create succeed", async () => {
    const before = await api.createSession({
      merchant_reference: "dash-eur-0",
      amount: "10.00",
      currency: "EUR",
    });
    expect(before.status).toBe(422);
    const page = await newPage();
    await signIn(page);
    await page.goto(`${gw.edgeUrl}/dashboard/settings/currencies`);
    await page.getByLabel("Currency").fill("EUR");
    await page.getByLabel("Rate (TND)").fill("3.35");
    await page.getByRole("button", { name: "Save the rate" }).click();
    await page.waitForURL(/saved=EUR$/);
    expect(await page.getByRole("table", { name: "Current rates" }).getByText("3.350000").count()).toBe(1);
    const after = await api.createSession({
      merchant_reference: "dash-eur-1",
      amount: "10.00",
      currency: "EUR",
    });
    expect(after.status, after.text).toBe(201);
    expect(after.body.amount).toBe("33.500");
  });

  for (const { lang, dir, locale } of LANGUAGES) {
    it(`every dashboard page in ${lang} has no serious or critical axe-core violation, and is saved as a screenshot`, async () => {
      const page = await newPage(locale);
      await page.goto(`${gw.edgeUrl}/dashboard/sign-in?lang=${lang}`);
      const pages: Array<[string, string]> = [["sign-in", "/dashboard/sign-in"]];
      await check(page, lang, dir, "sign-in");
      await page
        .getByLabel(lang === "en" ? "Email" : lang === "fr" ? "E-mail" : "البريد الإلكتروني")
        .fill(OWNER_EMAIL);
      await page.locator("#password").fill(OWNER_PASSWORD);
      await page.locator('form[action="/dashboard/sign-in"] button').click();
      await page.waitForURL(/\/dashboard\/payments$/);
      const paid = (await api.listSessions({ merchant_reference: "dash-paid-1" })).body.data[0].id as string;
      pages.push(
        ["payments", "/dashboard/payments"],
        ["payment-detail", `/dashboard/payments/${paid}`],
        ["currencies", "/dashboard/settings/currencies"],
        ["users", "/dashboard/users"],
        ["account", "/dashboard/account"],
        ["not-found", "/dashboard/nothing-here"],
      );
      for (const [name, path] of pages.slice(1)) {
        await page.goto(`${gw.edgeUrl}${path}`);
        await check(page, lang, dir, name);
      }
    });
  }

  it("axe-core as run here does report a serious violation (an image with no text alternative)", async () => {
    const page = await newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><main><img src="data:,"></main></html>',
    );
    expect((await seriousAxeViolations(page)).map((v) => v.id)).toContain("image-alt");
  });

  async function check(page: Page, lang: string, dir: string, name: string): Promise<void> {
    expect(await page.getAttribute("html", "lang")).toBe(lang);
    expect(await page.getAttribute("html", "dir")).toBe(dir);
    expect(await seriousAxeViolations(page), `${name} in ${lang}`).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${lang}.png`), fullPage: true });
  }
});
