import { GatewayError } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestEdge, type TestEdge } from "../fakes/edge-test-harness.js";
import {
  acquirerOf,
  cookieParts,
  cookiesFrom,
  createPayableSession,
  csrfFrom,
  expectCheckoutPage,
  form,
  headingOf,
  MERCHANT_ID,
  setCookieLines,
  textOf,
} from "./checkout-test-support.js";

describe("hosted checkout page", () => {
  let t: TestEdge;

  beforeEach(() => {
    t = createTestEdge();
    t.sessions.merchantNames.set(MERCHANT_ID, "Librairie Al Kitab");
  });

  const open = (token: string, headers: Record<string, string> = {}, query = "") =>
    t.app.inject({ method: "GET", url: `/checkout/${token}${query}`, headers });

  /** Opens the page, presses Pay; returns the pay answer. */
  async function pressPay(token: string, headers: Record<string, string> = {}) {
    const page = await open(token, headers);
    const cookie = cookiesFrom(page, headers.cookie ?? "");
    const body = form({ csrf: csrfFrom(page.body), lang: "en" });
    return t.app.inject({
      method: "POST",
      url: `/checkout/${token}/pay`,
      payload: body.payload,
      headers: { ...body.headers, cookie },
    });
  }

  /** A declined attempt (card_declined) on the session. */
  async function decline(token: string, failureCode = "card_declined") {
    const paid = await pressPay(token);
    const orderId = paid.headers.location!.split("/").pop()!;
    acquirerOf(t).decide(orderId, { status: "FAILED", failureCode });
    await t.sessions.settleAttempt({ acquirerOrderId: orderId, source: 1 } as never);
    return orderId;
  }

  describe("a payable session", () => {
    it("when opened, then the order summary with merchant, amount, items and description, Pay and Cancel forms", async () => {
      const { session, token } = await createPayableSession(t, {
        amount: "1250.500",
        description: "Two books",
        orderId: "A-1001",
        items: [
          { name: "Le Petit Prince", quantity: 2, unitPrice: "25.250", description: "Poche" },
          { name: "Bookmark", quantity: 1, unitPrice: "0.500" },
        ],
      });
      const res = await open(token);
      const html = expectCheckoutPage(res, 200);
      expect(headingOf(html)).toBe("Pay Librairie Al Kitab");
      expect(html).toContain('<html lang="en" dir="ltr">');
      expect(html).toContain("1,250.500\u00a0TND");
      expect(html).toContain(session.orderNumber);
      expect(html).toContain("A-1001");
      expect(html).toContain("Two books");
      expect(html).toContain("Le Petit Prince");
      expect(html).toContain("50.500\u00a0TND");
      expect(html).toContain("Poche");
      expect(html).toMatch(new RegExp(`<form method="post" action="/checkout/${token}/pay">`));
      expect(html).toMatch(new RegExp(`<form method="post" action="/checkout/${token}/cancel">`));
      expect(html).toMatch(
        /<button type="submit" class="button primary"[^>]*>Pay <bdi>1,250.500\u00a0TND<\/bdi><\/button>/,
      );
      expect(html).toContain(">Cancel payment</button>");
      expect(html).toContain("Test mode: no real payment will be taken.");
      expect(html).toMatch(
        /<link rel="stylesheet" href="\/checkout\/assets\/checkout\.css\?v=[0-9a-f]{12}">/,
      );
      expect(html).toContain('<main id="main"');
      expect(html).toContain('<nav class="languages" aria-label="Language">');
      expect(html).toContain('role="status" aria-live="polite"');
    });

    it("sets the CSRF nonce cookie HttpOnly, SameSite=Lax, on /checkout, and reuses it on the next visit", async () => {
      const { token } = await createPayableSession(t);
      const first = await open(token);
      const [line] = setCookieLines(first);
      // Attribute order is @fastify/cookie's; the attributes are what count.
      expect(cookieParts(line!).pair).toMatch(/^gw_csrf=[A-Za-z0-9_-]{43}$/);
      expect(cookieParts(line!).attributes).toEqual(["HttpOnly", "Path=/checkout", "SameSite=Lax"]);
      const again = await open(token, { cookie: cookiesFrom(first) });
      expect(setCookieLines(again)).toEqual([]);
      expect(csrfFrom(again.body)).toBe(csrfFrom(first.body));
    });

    it("when the public URL is https, then the cookies are Secure", async () => {
      t = createTestEdge({ checkout: { publicUrl: "https://pay.example.com" } });
      const { token } = await createPayableSession(t);
      const res = await open(token, {}, "?lang=fr");
      const lines = setCookieLines(res);
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(cookieParts(line).attributes).toContain("Secure");
    });

    it("when the session was converted, then the page shows the charged TND amount and the original", async () => {
      const { token } = await createPayableSession(t, {
        amount: "12.50",
        currency: "EUR",
        items: [{ name: "Mug", quantity: 2, unitPrice: "6.25" }],
      });
      const html = expectCheckoutPage(await open(token, { "accept-language": "fr" }), 200);
      expect(html).toContain("41,250\u00a0TND");
      expect(textOf(html)).toContain("Montant de la commande 12,50\u00a0EUR, converti au taux de 3,300000.");
      expect(html).toContain("6,25\u00a0EUR");
      expect(html).toContain("12,50\u00a0EUR");
    });

    it("when a live session is shown, then there is no test-mode banner", async () => {
      const { token } = await createPayableSession(t, { livemode: true });
      expect(expectCheckoutPage(await open(token), 200)).not.toContain("Test mode");
    });

    it("when merchant name, items and description carry markup, then it is shown as text, never run", async () => {
      t.sessions.merchantNames.set(MERCHANT_ID, `<script>alert("merchant")</script>`);
      const { token } = await createPayableSession(t, {
        description: `"><img src=x onerror=alert(1)>`,
        orderId: "<b>A</b>",
        items: [
          {
            name: "<script>alert('item')</script>",
            quantity: 1,
            unitPrice: "1.000",
            description: "<iframe src=//evil>",
          },
        ],
      });
      // The service refuses such a cancel_url at create; were one ever stored, the page still never links it.
      t.sessions.rewriteAnswer = (method, answer) => {
        if (method === "GetCheckout")
          (answer.session as { cancelUrl: string }).cancelUrl = "javascript:alert(1)";
      };
      const html = expectCheckoutPage(await open(token), 200);
      expect(html).not.toMatch(/<script|<img|<iframe|<b>A/);
      expect(html).toContain("&lt;script&gt;alert(&quot;merchant&quot;)&lt;/script&gt;");
      expect(html).toContain("&lt;script&gt;alert(&#39;item&#39;)&lt;/script&gt;");
      expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
      expect(html).toContain("&lt;iframe src=//evil&gt;");
      expect(html).not.toContain("javascript:");
    });

    it("when the merchant gave a cancel_url, then Cancel says it returns there and the CSP lets the form reach it", async () => {
      const { token } = await createPayableSession(t, { cancelUrl: "https://shop.example/cart?x=1" });
      const res = await open(token);
      expect(expectCheckoutPage(res, 200)).toContain(">Cancel and return to the merchant</button>");
      expect(res.headers["content-security-policy"]).toContain(
        "form-action 'self' http://localhost:8080 https://shop.example;",
      );
    });
  });

  describe("language", () => {
    it("when the browser prefers French, then the page is in French", async () => {
      const { token } = await createPayableSession(t);
      const html = expectCheckoutPage(
        await open(token, { "accept-language": "fr-FR,fr;q=0.9,en;q=0.5" }),
        200,
      );
      expect(html).toContain('<html lang="fr" dir="ltr">');
      expect(headingOf(html)).toBe("Payer Librairie Al Kitab");
      expect(textOf(html)).toContain("Payer 125,500\u00a0TND");
      expect(html).toContain('aria-label="Langue"');
    });

    it("when the browser prefers Arabic, then the page is right-to-left Arabic with Western digits", async () => {
      const { token } = await createPayableSession(t);
      const html = expectCheckoutPage(await open(token, { "accept-language": "ar-TN" }), 200);
      expect(html).toContain('<html lang="ar" dir="rtl">');
      expect(headingOf(html)).toBe("الدفع إلى Librairie Al Kitab");
      expect(html).toContain("ادفع <bdi>125.500\u00a0TND</bdi>");
    });

    it("when ?lang= is given, then it wins over Accept-Language and is remembered in gw_lang", async () => {
      const { token } = await createPayableSession(t);
      const res = await open(token, { "accept-language": "en" }, "?lang=ar");
      expect(expectCheckoutPage(res, 200)).toContain('<html lang="ar" dir="rtl">');
      expect(setCookieLines(res).map(cookieParts)).toContainEqual({
        pair: "gw_lang=ar",
        attributes: ["HttpOnly", "Max-Age=31536000", "Path=/checkout", "SameSite=Lax"],
      });
      const later = await open(token, { "accept-language": "en", cookie: cookiesFrom(res) });
      expect(later.body).toContain('<html lang="ar" dir="rtl">');
      expect(setCookieLines(later)).toEqual([]);
    });

    it("offers every language as a link to this page, marking the current one", async () => {
      const { token } = await createPayableSession(t);
      const html = expectCheckoutPage(await open(token, {}, "?lang=fr&canceled=1"), 200);
      expect(html).toContain(
        `<a href="/checkout/${token}?lang=fr&amp;canceled=1" hreflang="fr" lang="fr" aria-current="true">Français</a>`,
      );
      expect(html).toContain(
        `<a href="/checkout/${token}?lang=en&amp;canceled=1" hreflang="en" lang="en">English</a>`,
      );
      expect(html).toContain(
        `<a href="/checkout/${token}?lang=ar&amp;canceled=1" hreflang="ar" lang="ar">العربية</a>`,
      );
    });

    it("when an unknown language is asked for, then the browser's is used and nothing is remembered", async () => {
      const { token } = await createPayableSession(t);
      const res = await open(token, { "accept-language": "fr" }, "?lang=de");
      expect(res.body).toContain('<html lang="fr"');
      expect(setCookieLines(res).filter((line) => line.startsWith("gw_lang"))).toEqual([]);
    });
  });

  describe("after a decline", () => {
    it("when retries remain, then the page explains the failure in the buyer's language and counts what is left", async () => {
      const { token } = await createPayableSession(t, { maxAttempts: 3 });
      await decline(token, "insufficient_funds");
      const en = expectCheckoutPage(await open(token), 200);
      expect(en).toMatch(/<div class="alert" role="alert">\s*<h2>Your payment was declined<\/h2>/);
      expect(en).toContain("Your card has insufficient funds. Try another card.");
      expect(en).toContain("You can try 2 more times.");
      expect(textOf(en)).toContain("Pay 125.500\u00a0TND");
      const fr = await open(token, { "accept-language": "fr" });
      expect(fr.body).toContain("Le solde de votre carte est insuffisant.");
      expect(fr.body).toContain("Il vous reste 2 essais.");
      const ar = await open(token, { "accept-language": "ar" });
      expect(ar.body).toContain("رصيد بطاقتك غير كافٍ");
      expect(ar.body).toContain("عدد المحاولات المتبقية: 2");
    });

    it("when the failure code is one the page does not know, then a generic reason is shown", async () => {
      const { token } = await createPayableSession(t);
      await decline(token, "something_new");
      expect(await open(token).then((r) => r.body)).toContain(
        "Your payment was not completed. Please try again.",
      );
    });

    it("when no attempt is left, then the FAILED page offers no retry, only the way back to the merchant", async () => {
      const { token } = await createPayableSession(t, {
        maxAttempts: 1,
        cancelUrl: "https://shop.example/cancel",
      });
      await decline(token);
      const html = expectCheckoutPage(await open(token), 200);
      expect(headingOf(html)).toBe("Payment failed");
      expect(html).not.toContain("<form");
      expect(html).toContain('href="https://shop.example/cancel"');
      expect(textOf(html)).toContain("Return to Librairie Al Kitab");
    });
  });

  describe("other states", () => {
    it("when a payment is processing, then a 'payment in progress' page with a Check again link", async () => {
      const { token } = await createPayableSession(t);
      const paid = await pressPay(token);
      const orderId = paid.headers.location!.split("/").pop()!;
      // The buyer has not finished on the card page: the order is still open at the acquirer.
      acquirerOf(t).decide(orderId, { status: "PENDING" });
      await t.sessions.settleAttempt({ acquirerOrderId: orderId, source: 1 } as never);
      const html = expectCheckoutPage(await open(token), 200);
      expect(headingOf(html)).toBe("Payment in progress");
      expect(html).toContain(`<a class="button primary" href="/checkout/${token}">Check again</a>`);
      expect(html).toContain('role="status"');
      expect(html).not.toContain("<form");
    });

    it("when the payment succeeded, then a success page linking to return_url", async () => {
      const { token } = await createPayableSession(t, { returnUrl: "https://shop.example/thanks?order=1" });
      const paid = await pressPay(token);
      const orderId = paid.headers.location!.split("/").pop()!;
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "visa", lastFour: "4242" });
      await t.sessions.settleAttempt({ acquirerOrderId: orderId, source: 1 } as never);
      const html = expectCheckoutPage(await open(token, { "accept-language": "fr" }), 200);
      expect(headingOf(html)).toBe("Paiement réussi");
      expect(textOf(html)).toContain("Merci, votre paiement à Librairie Al Kitab a bien été reçu.");
      expect(html).toContain(
        '<a class="button primary" href="https://shop.example/thanks?order=1">Revenir sur <bdi>Librairie Al Kitab</bdi></a>',
      );
    });

    it("when the session was canceled or expired, then a closed page", async () => {
      const { session, token } = await createPayableSession(t);
      await t.sessions.cancelSession({ scope: session.scope, sessionId: session.id } as never);
      expect(headingOf(expectCheckoutPage(await open(token), 200))).toBe("This payment is closed");
      const other = await createPayableSession(t);
      await t.sessions.expireSession(other.session.id);
      expect(headingOf(expectCheckoutPage(await open(other.token, { "accept-language": "ar" }), 200))).toBe(
        "عملية الدفع هذه مغلقة",
      );
    });

    it("when the link's lifetime is over, then 410 and a clear 'this link has expired' page pointing back to the merchant", async () => {
      const { token } = await createPayableSession(t, { cancelUrl: "https://shop.example/cart" });
      t.clock.advance(30 * 60_000);
      const html = expectCheckoutPage(await open(token), 410);
      expect(headingOf(html)).toBe("This payment link has expired");
      expect(html).toContain("Go back to the merchant&#39;s website to get a new payment link.");
      expect(html).toContain('href="https://shop.example/cart"');
      expect(html).not.toContain("<form");
    });

    it("when the token is unknown or malformed, then a 404 page, not an error document", async () => {
      for (const url of ["/checkout/UnknownToken0123456789", "/checkout/%3Cscript%3E", "/checkout/a.b"]) {
        const html = expectCheckoutPage(await t.app.inject({ method: "GET", url }), 404);
        expect(headingOf(html)).toBe("Payment page not found");
      }
    });

    it("when an unknown path under /checkout is asked, then a 404 page; a wrong method a 405 page with Allow", async () => {
      expectCheckoutPage(await t.app.inject({ method: "GET", url: "/checkout/a/b/c" }), 404);
      const { token } = await createPayableSession(t);
      const res = await t.app.inject({ method: "DELETE", url: `/checkout/${token}` });
      expectCheckoutPage(res, 405);
      expect(res.headers.allow).toBe("GET, HEAD");
    });

    it("when the sessions service is down, then a 503 page asking to retry, never a 500 nor JSON", async () => {
      const { token } = await createPayableSession(t);
      t.outage.sessions = true;
      const res = await open(token);
      const html = expectCheckoutPage(res, 503);
      expect(headingOf(html)).toBe("Service temporarily unavailable");
      expect(res.headers["retry-after"]).toBe("1");
      expect(html).toContain(`href="/checkout/${token}">Try again</a>`);
    });

    it("when the service fails unexpectedly, then a 500 page quoting the request id, without internals", async () => {
      const { token } = await createPayableSession(t);
      t.sessions.failWith = new Error("mongo exploded at /srv/app.ts:12");
      const res = await open(token);
      const html = expectCheckoutPage(res, 500);
      expect(headingOf(html)).toBe("Something went wrong");
      expect(html).toContain(`<code>${res.headers["request-id"]}</code>`);
      expect(html).not.toContain("mongo");
    });
  });

  describe("stylesheet", () => {
    it("is served from the edge, cacheable for good", async () => {
      const res = await t.app.inject({ method: "GET", url: "/checkout/assets/checkout.css?v=abc" });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/css; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.body).toContain(":focus-visible");
      expect(res.body).not.toMatch(/@import|url\(\s*["']?https?:/);
    });
  });

  describe("the failing StartPayment case is a page too", () => {
    it("GatewayError reasons thrown by the service never surface as JSON", async () => {
      const { token } = await createPayableSession(t);
      t.sessions.failWith = new GatewayError("RATE_LIMIT_EXCEEDED", "slow down", {
        metadata: { retry_after_seconds: "3" },
      });
      const res = await open(token);
      expectCheckoutPage(res, 429);
      expect(res.headers["retry-after"]).toBe("3");
    });
  });
});
