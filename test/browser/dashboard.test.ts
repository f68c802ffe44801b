import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DistributedGateway, startDistributedGateway } from "@gateway/launcher";
import { type LocalServer, startFerretDb, startNatsServer } from "@gateway/testkit";
import { verifyStandardWebhook, verifyWebhook } from "@gateway/webhook-signature";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../e2e/support/browser.js";
import { type AdminApi, adminApi, type MerchantApi, merchantApi } from "../e2e/support/http.js";
import { payWithCard } from "../e2e/support/pay-with-card.js";
import { startWebhookReceiver, type WebhookReceiver } from "../e2e/support/webhook-receiver.js";
import { seriousAxeViolations } from "./support/axe.js";

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "../../artifacts/dashboard-screenshots");
const ADMIN_TOKEN = "dashboard-browser-admin-token-0123456789";
const OWNER_EMAIL = "owner@librairie.example";
const OWNER_PASSWORD = "a long and private passphrase";
const CARD = { number: "4242424242424242" };
const LANGUAGES = [
  { lang: "en", dir: "ltr", locale: "en-GB" },
  { lang: "fr", dir: "ltr", locale: "fr-FR" },
  { lang: "ar", dir: "rtl", locale: "ar-TN" },
] as const;

// The merchant dashboard on the whole distributed stack, driven by headless Chromium as the
// operator and a merchant's owner use it, with real webhook receivers checking signatures. The
// tests run in order: each goes on from what the previous ones set up.
let gw: DistributedGateway;
let admin: AdminApi;
let merchantId: string;
/** The merchant API with the test key the owner read in the dashboard. */
let api: MerchantApi;
/** The merchant's endpoint (subscribes to refunds later, in the dashboard). */
let receiver: WebhookReceiver;
/** Another merchant's endpoint, with the default subscriptions (no refunds). */
let otherReceiver: WebhookReceiver;
let otherApi: MerchantApi;
let signingSecret: string;
let paidSessionId: string;
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
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_WEBHOOK_POLL_INTERVAL: "100ms" },
  });
  admin = adminApi(gw.edgeUrl, ADMIN_TOKEN);
  receiver = await startWebhookReceiver();
  otherReceiver = await startWebhookReceiver();
  const terminal = {
    base_url: `${gw.simulatorUrl}/epg/rest`,
    username: "sim-merchant",
    password: "sim-password",
    active: true,
  };
  const merchant = await admin.createMerchant("Librairie Al Kitab");
  expect(merchant.status, merchant.text).toBe(201);
  merchantId = merchant.body.id;
  expect((await admin.setTerminal(merchantId, "test", terminal)).status).toBe(200);

  const other = await admin.createMerchant("Other Shop");
  expect((await admin.setTerminal(other.body.id, "test", terminal)).status).toBe(200);
  otherApi = merchantApi(gw.edgeUrl, (await admin.createKey(other.body.id, "test")).body.key);
  const endpoint = await fetch(`${gw.edgeUrl}/admin/v1/merchants/${other.body.id}/webhook-endpoints/test`, {
    method: "PUT",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ url: otherReceiver.url }),
  });
  expect(endpoint.status).toBe(200);
  otherReceiver.setSecrets(((await endpoint.json()) as { secret: string }).secret);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await otherReceiver?.close();
  await gw?.stop();
  for (const server of ownServers.reverse()) await server.stop();
}, 60_000);

async function own(starting: Promise<LocalServer>): Promise<LocalServer> {
  const server = await starting;
  ownServers.push(server);
  return server;
}

async function paidSession(on: MerchantApi, reference: string, amount: string): Promise<string> {
  const created = await on.createSession({ merchant_reference: reference, amount });
  expect(created.status, created.text).toBe(201);
  await payWithCard(created.body.checkout_url, CARD);
  await expect
    .poll(async () => (await on.getSession(created.body.id)).body.status, { timeout: 30_000 })
    .toBe("SUCCEEDED");
  return created.body.id;
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

  const shownSecret = (page: Page) => page.locator("code[data-secret]").textContent() as Promise<string>;

  it("the operator invites the owner, who sets a password, signs in, reads the test key, sets the endpoint, and sees a paid session with its attempt and delivery", async () => {
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

    // The test key: created once, then shown again whenever asked.
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: "Create a key" }).click();
    const created = await shownSecret(page);
    await page.getByRole("link", { name: "Back to the API keys" }).click();
    await page.getByRole("button", { name: "Show the key" }).click();
    expect(await shownSecret(page)).toBe(created);
    api = merchantApi(gw.edgeUrl, created);

    // The endpoint and its signing secret.
    await page.goto(`${gw.edgeUrl}/dashboard/developers/webhooks`);
    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save the URL" }).click();
    await page.waitForURL(/done=url$/);
    await page.getByRole("button", { name: "Show the signing secret" }).click();
    signingSecret = await shownSecret(page);
    expect(signingSecret).toMatch(/^whsec_/);
    receiver.setSecrets(signingSecret);

    paidSessionId = await paidSession(api, "dash-paid-1", "42.000");
    const [delivered] = await receiver.waitForRequests(1, (r) => r.json?.data?.id === paidSessionId, 30_000);
    expect(delivered!.standard?.ok).toBe(true);

    await page.goto(`${gw.edgeUrl}/dashboard/payments?status=SUCCEEDED`);
    await page.getByRole("link", { name: "dash-paid-1" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Payment dash-paid-1");
    expect(await page.getByRole("table", { name: "Payment attempts" }).getByText("SUCCEEDED").count()).toBe(
      1,
    );
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("table", { name: "Webhook deliveries" }).getByText("SUCCEEDED").count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
  });

  it("a resend from the dashboard reaches the receiver with the same webhook id and a valid signature", async () => {
    const page = await newPage();
    await signIn(page);
    await page.goto(
      `${gw.edgeUrl}/dashboard/developers/webhooks?event=session.succeeded&session=${paidSessionId}`,
    );
    await page.getByRole("link", { name: "session.succeeded" }).first().click();
    expect(await page.getByRole("table", { name: "Headers" }).getByText("webhook-signature").count()).toBe(1);
    const before = receiver.forSession(paidSessionId).length;
    await page.getByRole("button", { name: "Resend" }).click();
    await page.waitForURL(/done=resent$/);
    const all = await receiver.waitForRequests(before + 1, (r) => r.json?.data?.id === paidSessionId, 30_000);
    const [first, resent] = [all[0]!, all.at(-1)!];
    expect(resent.webhookId).toBe(first.webhookId);
    expect(resent.signature?.ok).toBe(true);
    expect(resent.standard?.ok).toBe(true);
  });

  it("rotating the secret with an overlap: the next delivery verifies with the new secret, and with the old one during the overlap", async () => {
    const page = await newPage();
    await signIn(page);
    await page.goto(`${gw.edgeUrl}/dashboard/developers/webhooks`);
    await page.getByLabel("Old secret keeps signing").selectOption("3600");
    await page.getByRole("button", { name: "Rotate the secret" }).click();
    await page.waitForURL(/done=rotated$/);
    await page.getByRole("button", { name: "Show the signing secret" }).click();
    const rotated = await shownSecret(page);
    expect(rotated).not.toBe(signingSecret);
    await page.goto(`${gw.edgeUrl}/dashboard/developers/webhooks`);
    const before = receiver.requests.length;
    await page.getByRole("button", { name: "Send a test event" }).click();
    await page.waitForURL(/done=test$/);
    const [test] = await receiver.waitForRequests(
      1,
      (r) => r.n > before && r.json?.event === "webhook.test",
      30_000,
    );
    expect(verifyStandardWebhook(test!.rawBody, test!.headers, rotated).ok).toBe(true);
    expect(verifyWebhook(test!.rawBody, test!.headers, rotated).ok).toBe(true);
    expect(verifyStandardWebhook(test!.rawBody, test!.headers, signingSecret).ok).toBe(true);
    signingSecret = rotated;
    receiver.setSecrets(rotated);
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

  it("a partial refund from the dashboard is listed and sent as refund.succeeded to the endpoint that subscribed, not to one that did not", async () => {
    const otherSession = await paidSession(otherApi, "other-refunded", "20.000");
    const otherRefund = await otherApi.refund(otherSession, { refund_type: "FULL" });
    expect(otherRefund.status, otherRefund.text).toBe(201);

    const page = await newPage();
    await signIn(page);
    await page.goto(`${gw.edgeUrl}/dashboard/developers/webhooks`);
    await page.getByLabel("refund.* (every refund event)").check();
    await page.getByRole("button", { name: "Save the events" }).click();
    await page.waitForURL(/done=subscriptions$/);

    const sessionId = await paidSession(api, "dash-refund-1", "100.000");
    await page.goto(`${gw.edgeUrl}/dashboard/payments/${sessionId}`);
    await page.getByLabel("Partial refund").check();
    await page.getByLabel("Amount to refund (TND)").fill("10.500");
    await page.getByRole("button", { name: "Review the refund" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Refund 10.500 TND?");
    await page.getByRole("button", { name: "Yes, refund" }).click();
    await page.waitForURL(/done=refunded$/);
    expect(await page.getByRole("table", { name: "Refunds" }).getByText("10.500").count()).toBe(1);

    const [refunded] = await receiver.waitForRequests(
      1,
      (r) => r.json?.event === "refund.succeeded" && r.json?.data?.session_id === sessionId,
      30_000,
    );
    expect(refunded!.standard?.ok).toBe(true);
    expect(refunded!.json.data.refunded_amount).toBe("10.500");
    // The other merchant's refund came first through the same consumer: its endpoint got the
    // session events it subscribes to by default, and no refund event.
    expect(otherReceiver.requests.some((r) => r.json?.event === "session.succeeded")).toBe(true);
    expect(otherReceiver.requests.filter((r) => String(r.json?.event).startsWith("refund."))).toEqual([]);
  });

  for (const { lang, dir, locale } of LANGUAGES) {
    it(`every dashboard page in ${lang} has no serious or critical axe-core violation, and is saved as a screenshot`, async () => {
      const page = await newPage(locale);
      await page.goto(`${gw.edgeUrl}/dashboard/sign-in?lang=${lang}`);
      await check(page, lang, dir, "sign-in");
      await page.locator("#email").fill(OWNER_EMAIL);
      await page.locator("#password").fill(OWNER_PASSWORD);
      await page.locator('form[action="/dashboard/sign-in"] button').click();
      await page.waitForURL(/\/dashboard\/payments$/);
      const deliveries = (await api.sessionDeliveries(paidSessionId)).body.data as Array<{ id: string }>;
      const pages: Array<[string, string]> = [
        ["payments", "/dashboard/payments"],
        ["payment-detail", `/dashboard/payments/${paidSessionId}`],
        ["cancel-confirmation", `/dashboard/payments/${paidSessionId}/cancel`],
        ["api-keys", "/dashboard/developers/api-keys"],
        ["webhooks", "/dashboard/developers/webhooks"],
        ["delivery-detail", `/dashboard/developers/webhooks/deliveries/${deliveries[0]!.id}`],
        ["currencies", "/dashboard/settings/currencies"],
        ["business", "/dashboard/settings/business"],
        ["users", "/dashboard/users"],
        ["audit-log", "/dashboard/audit-log"],
        ["account", "/dashboard/account"],
        ["not-found", "/dashboard/nothing-here"],
      ];
      for (const [name, path] of pages) {
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
