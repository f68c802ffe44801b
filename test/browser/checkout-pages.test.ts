import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import {
  AccountScopeSchema,
  CreateSessionRequestSchema,
  LineItemSchema,
  SettlementSource,
} from "@gateway/proto";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CheckoutBrowserStack, startCheckoutBrowserStack } from "./checkout-browser-harness.js";

// Page functions below run inside Chromium; this project compiles without the DOM library, so the
// two browser APIs they use are declared here (module scope only).
interface BrowserElement {
  parentElement: BrowserElement | null;
}
declare const getComputedStyle: (element: BrowserElement) => {
  color: string;
  backgroundColor: string;
  outlineStyle: string;
  outlineWidth: string;
};

const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), "../../artifacts/screenshots");
const MERCHANT_ID = "mer_browsertest000000000001";

/** WCAG relative luminance contrast of two computed CSS colours ("rgb(r, g, b)"). */
function contrast(foreground: string, background: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

async function colours(locator: Locator): Promise<{ color: string; background: string }> {
  return locator.evaluate((element: BrowserElement) => {
    const style = getComputedStyle(element);
    let node: BrowserElement | null = element;
    let background = "rgba(0, 0, 0, 0)";
    while (node && (background === "rgba(0, 0, 0, 0)" || background === "transparent")) {
      background = getComputedStyle(node).backgroundColor;
      node = node.parentElement;
    }
    return {
      color: style.color,
      background: background === "rgba(0, 0, 0, 0)" ? "rgb(255, 255, 255)" : background,
    };
  });
}

describe("hosted checkout in a real browser (Chromium, JavaScript disabled)", () => {
  let stack: CheckoutBrowserStack;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let references = 0;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    stack = await startCheckoutBrowserStack();
    stack.sessions.merchantNames.set(MERCHANT_ID, "Librairie Al Kitab");
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function newPage(locale: string, javaScriptEnabled = false): Promise<Page> {
    context = await browser.newContext({ javaScriptEnabled, locale, viewport: { width: 480, height: 900 } });
    return context.newPage();
  }

  async function checkoutLink(
    fields: { returnUrl?: string; cancelUrl?: string; maxAttempts?: number } = {},
  ): Promise<string> {
    const { session } = await stack.sessions.createSession(
      create(CreateSessionRequestSchema, {
        scope: create(AccountScopeSchema, { merchantId: MERCHANT_ID, livemode: false }),
        merchantReference: `browser-${++references}`,
        amount: "125.500",
        orderId: "CMD-2026-0042",
        description: "Livres pour la rentrée",
        items: [
          create(LineItemSchema, {
            name: "Le Petit Prince",
            quantity: 2,
            unitPrice: "45.250",
            description: "Édition de poche",
          }),
          create(LineItemSchema, { name: "Cahier A4", quantity: 5, unitPrice: "7.000", description: "" }),
        ],
        ...fields,
      }),
    );
    return session!.checkoutUrl;
  }

  const pages = [
    {
      language: "en",
      locale: "en-GB",
      dir: "ltr",
      pay: "Pay 125.500 TND",
      cancel: "Cancel payment",
      heading: "Pay Librairie Al Kitab",
      nav: "Language",
    },
    {
      language: "fr",
      locale: "fr-FR",
      dir: "ltr",
      pay: "Payer 125,500 TND",
      cancel: "Annuler le paiement",
      heading: "Payer Librairie Al Kitab",
      nav: "Langue",
    },
    {
      language: "ar",
      locale: "ar-TN",
      dir: "rtl",
      pay: "ادفع 125.500 TND",
      cancel: "إلغاء عملية الدفع",
      heading: "الدفع إلى Librairie Al Kitab",
      nav: "اللغة",
    },
  ] as const;

  for (const expected of pages) {
    it(`shows the order in ${expected.language} (from the browser's language), accessibly named, and saves a screenshot`, async () => {
      const page = await newPage(expected.locale);
      const response = await page.goto(await checkoutLink());
      expect(response?.status()).toBe(200);
      expect(await page.getAttribute("html", "lang")).toBe(expected.language);
      expect(await page.getAttribute("html", "dir")).toBe(expected.dir);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(expected.heading);
      expect(await page.getByRole("button", { name: expected.pay, exact: true }).count()).toBe(1);
      expect(await page.getByRole("button", { name: expected.cancel, exact: true }).count()).toBe(1);
      expect(await page.getByRole("main").count()).toBe(1);
      expect(await page.getByRole("banner").count()).toBe(1);
      expect(await page.getByRole("contentinfo").count()).toBe(1);
      const languages = page.getByRole("navigation", { name: expected.nav });
      expect(await languages.getByRole("link").count()).toBe(3);
      expect(await languages.getByRole("link", { name: "العربية" }).getAttribute("lang")).toBe("ar");
      expect(
        await page
          .getByRole("table")
          .getByRole("rowheader", { name: /Le Petit Prince/ })
          .count(),
      ).toBe(1);
      expect(await page.getByText("CMD-2026-0042").count()).toBe(1);
      // The stylesheet (self-hosted, allowed by the CSP) applied: the Pay button is styled.
      const pay = page.getByRole("button", { name: expected.pay, exact: true });
      expect(await pay.evaluate((el: BrowserElement) => getComputedStyle(el).backgroundColor)).toBe(
        "rgb(11, 79, 194)",
      );
      await page.screenshot({ path: join(SCREENSHOTS, `checkout-${expected.language}.png`), fullPage: true });
    });
  }

  it("keeps the chosen language through the switcher (a plain link) and a cookie", async () => {
    const page = await newPage("en-GB");
    const link = await checkoutLink();
    await page.goto(link);
    await page.getByRole("link", { name: "Français" }).click();
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    await page.goto(link);
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.getByRole("link", { name: "Français" }).getAttribute("aria-current")).toBe("true");
  });

  it("meets contrast and shows a visible focus ring on keyboard focus", async () => {
    const page = await newPage("en-GB", true);
    await page.goto(await checkoutLink());
    const pay = page.getByRole("button", { name: "Pay 125.500 TND" });
    for (const target of [
      pay,
      page.getByRole("heading", { level: 1 }),
      page.locator(".hint"),
      page.locator(".facts dt").first(),
      page.getByRole("button", { name: "Cancel payment" }),
    ]) {
      const { color, background } = await colours(target);
      expect(contrast(color, background), (await target.textContent()) ?? "").toBeGreaterThanOrEqual(4.5);
    }
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus-visible");
    expect(await focused.count()).toBe(1);
    expect(await focused.evaluate((el: BrowserElement) => getComputedStyle(el).outlineStyle)).toBe("solid");
    expect(await focused.evaluate((el: BrowserElement) => getComputedStyle(el).outlineWidth)).toBe("3px");
  });

  it("pays without JavaScript: Pay -> the simulator's card page -> /checkout/return -> the merchant's return_url", async () => {
    const page = await newPage("en-GB");
    const visited: string[] = [];
    page.on("request", (request) => visited.push(new URL(request.url()).pathname));
    await page.goto(await checkoutLink({ returnUrl: `${stack.merchantUrl}/thanks` }));
    await page.getByRole("button", { name: "Pay 125.500 TND" }).click();
    await page.waitForURL(/\/epg\/payment\//);
    expect(new URL(page.url()).origin).toBe(stack.edgeUrl);
    expect(await page.getByLabel("Card number").getAttribute("autocomplete")).toBe("cc-number");
    expect(await page.getByLabel("Name on card").getAttribute("autocomplete")).toBe("cc-name");
    expect(await page.getByLabel("Expiry date").getAttribute("autocomplete")).toBe("cc-exp");
    expect(await page.getByLabel("Security code (CVC)").getAttribute("autocomplete")).toBe("cc-csc");
    await page.getByLabel("Name on card").fill("Amal Ben Salah");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry date").fill("12/39");
    await page.getByLabel("Security code (CVC)").fill("123");
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.waitForURL(`${stack.merchantUrl}/thanks`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Merchant: order complete");
    expect(visited).toContain("/checkout/return");
    expect(stack.sessions.settleRequests.map((r) => r.source)).toContain(SettlementSource.RETURN);
  });

  it("after a decline, comes back to the checkout page explaining why, in French, with the attempts left", async () => {
    const page = await newPage("fr-FR");
    const link = await checkoutLink({ maxAttempts: 3 });
    await page.goto(link);
    await page.getByRole("button", { name: "Payer 125,500 TND" }).click();
    await page.waitForURL(/\/epg\/payment\//);
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    await page.getByLabel("Nom sur la carte").fill("Amal Ben Salah");
    await page.getByLabel("Numéro de carte").fill("4000 0000 0000 0002");
    await page.getByLabel("Date d'expiration").fill("12/39");
    await page.getByLabel("Code de sécurité (CVC)").fill("123");
    await page.getByRole("button", { name: /^Payer / }).click();
    await page.waitForURL(link);
    const alert = page.getByRole("alert");
    expect(await alert.getByRole("heading", { level: 2 }).textContent()).toBe("Votre paiement a été refusé");
    expect(await alert.textContent()).toContain("Votre carte a été refusée.");
    expect(await alert.textContent()).toContain("Il vous reste 2 essais.");
    expect(await page.getByRole("button", { name: "Payer 125,500 TND" }).count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, "checkout-declined-fr.png"), fullPage: true });
  });

  it("answers an unknown link with a 404 page in the buyer's language", async () => {
    const page = await newPage("ar-TN");
    const response = await page.goto(`${stack.edgeUrl}/checkout/NoSuchCheckoutLink0000000`);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute("html", "dir")).toBe("rtl");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("صفحة الدفع غير موجودة");
    await page.screenshot({ path: join(SCREENSHOTS, "checkout-not-found-ar.png"), fullPage: true });
  });

  it("cancels without JavaScript back to the merchant's cancel_url", async () => {
    const page = await newPage("ar-TN");
    await page.goto(await checkoutLink({ cancelUrl: `${stack.merchantUrl}/cancel` }));
    await page.getByRole("button", { name: "إلغاء والعودة إلى التاجر" }).click();
    await page.waitForURL(`${stack.merchantUrl}/cancel`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Merchant: payment canceled");
  });

  // Issue 15 item 12: on a 360 px phone the items table used to scroll sideways and "Premium"
  // broke inside the word.
  for (const { language, locale } of pages) {
    it(`fits a 360 px wide phone in ${language}: nothing wider than the viewport, no word broken inside`, async () => {
      context = await browser.newContext({
        javaScriptEnabled: false,
        locale,
        viewport: { width: 360, height: 740 },
      });
      const page = await context.newPage();
      const { session } = await stack.sessions.createSession(
        create(CreateSessionRequestSchema, {
          scope: create(AccountScopeSchema, { merchantId: MERCHANT_ID, livemode: false }),
          merchantReference: `browser-phone-${++references}`,
          amount: "12450.750",
          orderId: "CMD-2026-0099",
          items: [
            create(LineItemSchema, {
              name: "Premium subscription",
              quantity: 12,
              unitPrice: "1000.000",
              description: "Annual plan, billed monthly",
            }),
            create(LineItemSchema, {
              name: "Onboarding",
              quantity: 1,
              unitPrice: "450.750",
              description: "",
            }),
          ],
        }),
      );
      const response = await page.goto(session!.checkoutUrl);
      expect(response?.status()).toBe(200);
      // Evaluated in Chromium (this project has no DOM types, hence the string).
      const layout = (await page.evaluate(`(() => {
        const root = document.documentElement;
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        let premiumLines = 0;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent.indexOf("Premium");
          if (at === -1) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + "Premium".length);
          premiumLines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, premiumLines };
      })()`)) as { scrollWidth: number; clientWidth: number; premiumLines: number };
      expect(layout.scrollWidth, JSON.stringify(layout)).toBeLessThanOrEqual(360);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.premiumLines).toBe(1);
      await page.screenshot({ path: join(SCREENSHOTS, `checkout-360px-${language}.png`), fullPage: true });
    });
  }
});
