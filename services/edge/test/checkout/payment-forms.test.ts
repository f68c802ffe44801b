import { GatewayError } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestEdge, type TestEdge } from "../fakes/edge-test-harness.js";
import {
  acquirerOf,
  cookiesFrom,
  createPayableSession,
  csrfFrom,
  expectCheckoutPage,
  form,
  headingOf,
  MERCHANT_ID,
} from "./checkout-test-support.js";

describe("checkout forms: Pay and Cancel", () => {
  let t: TestEdge;

  beforeEach(() => {
    t = createTestEdge();
  });

  /** Loads the page like a browser and returns what its forms need. */
  async function loadPage(token: string, headers: Record<string, string> = {}) {
    const page = await t.app.inject({ method: "GET", url: `/checkout/${token}`, headers });
    return { cookie: cookiesFrom(page, headers.cookie ?? ""), csrf: csrfFrom(page.body) };
  }

  const post = (
    token: string,
    action: "pay" | "cancel",
    fields: Record<string, string>,
    cookie?: string,
    extra: Record<string, string> = {},
  ) => {
    const body = form(fields);
    return t.app.inject({
      method: "POST",
      url: `/checkout/${token}/${action}`,
      payload: body.payload,
      headers: { ...body.headers, ...(cookie === undefined ? {} : { cookie }), ...extra },
    });
  };

  describe("Pay", () => {
    it("when the form is genuine, then StartPayment in the page's language and 303 to the acquirer's card page", async () => {
      const { token } = await createPayableSession(t);
      const { cookie, csrf } = await loadPage(token, { "accept-language": "ar" });
      const res = await post(token, "pay", { csrf, lang: "ar" }, cookie);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/^https:\/\/acquirer\.test\/epg\/payment\/acq-/);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(t.sessions.startRequests).toEqual([{ token, language: "ar" }]);
      const order = [...acquirerOf(t).orders.values()][0]!;
      expect(order.registration).toMatchObject({
        amountMinor: 125_500n,
        currencyNumeric: "788",
        returnUrl: "http://localhost:8080/checkout/return",
        language: "ar",
      });
    });

    it("when the CSRF field is missing, then 403 and a page explaining it, and no payment is started", async () => {
      const { token } = await createPayableSession(t);
      const { cookie } = await loadPage(token);
      const res = await post(token, "pay", { lang: "en" }, cookie);
      const html = expectCheckoutPage(res, 403);
      expect(headingOf(html)).toBe("Your request could not be verified");
      expect(html).toContain(`href="/checkout/${token}">Back to the payment page</a>`);
      expect(t.sessions.startRequests).toEqual([]);
    });

    it("when the nonce cookie is missing, then 403", async () => {
      const { token } = await createPayableSession(t);
      const { csrf } = await loadPage(token);
      expectCheckoutPage(await post(token, "pay", { csrf }), 403);
      expect(t.sessions.startRequests).toEqual([]);
    });

    it("when the token belongs to another checkout link or another browser, then 403", async () => {
      const first = await createPayableSession(t);
      const second = await createPayableSession(t);
      const page = await loadPage(first.token);
      const otherBrowser = await loadPage(first.token);
      expectCheckoutPage(await post(second.token, "pay", { csrf: page.csrf }, page.cookie), 403);
      expectCheckoutPage(await post(first.token, "pay", { csrf: page.csrf }, otherBrowser.cookie), 403);
      expectCheckoutPage(await post(first.token, "pay", { csrf: `${page.csrf}x` }, page.cookie), 403);
      expect(t.sessions.startRequests).toEqual([]);
    });

    it("when the CSRF page is asked for in French, then the 403 page is in French", async () => {
      const { token } = await createPayableSession(t);
      const res = await post(token, "pay", { csrf: "nope", lang: "fr" });
      expect(headingOf(expectCheckoutPage(res, 403))).toBe("Votre demande n'a pas pu être vérifiée");
    });

    it("when the body is JSON, then 415 as a page, not a problem document", async () => {
      const { token } = await createPayableSession(t);
      const res = await t.app.inject({
        method: "POST",
        url: `/checkout/${token}/pay`,
        payload: "{}",
        headers: { "content-type": "application/json" },
      });
      expectCheckoutPage(res, 415);
    });

    it("when the form is oversized, then 413 as a page", async () => {
      const { token } = await createPayableSession(t);
      const res = await post(token, "pay", { csrf: "x".repeat(10_000) });
      expectCheckoutPage(res, 413);
    });

    const startPaymentErrors: Array<[string, () => void, number, string]> = [
      [
        "no terminal configured",
        () => t.sessions.terminalProblems.set(MERCHANT_ID, "NO_TERMINAL_CONFIGURED"),
        422,
        "Card payments are unavailable",
      ],
      [
        "terminal inactive",
        () => t.sessions.terminalProblems.set(MERCHANT_ID, "TERMINAL_INACTIVE"),
        422,
        "Card payments are unavailable",
      ],
      [
        "terminal rejected",
        () => t.sessions.terminalProblems.set(MERCHANT_ID, "TERMINAL_REJECTED"),
        422,
        "Card payments are unavailable",
      ],
      ["acquirer unreachable", () => void (acquirerOf(t).down = true), 502, "The bank is not responding"],
      [
        "checkout limit",
        () => void (t.sessions.failWith = new GatewayError("CHECKOUT_LIMIT_EXCEEDED", "too many")),
        422,
        "The payment cannot be started",
      ],
      [
        "invalid state",
        () => void (t.sessions.failWith = new GatewayError("INVALID_STATE", "busy")),
        422,
        "The payment cannot be started",
      ],
      [
        "sessions service down",
        () => void (t.outage.sessions = true),
        503,
        "Service temporarily unavailable",
      ],
      // Issue 15 item 11: another Pay is registering the attempt; said at once, not waited for.
      [
        "payment in progress",
        () =>
          void (t.sessions.failWith = new GatewayError("INVALID_STATE", "busy", {
            metadata: { session_id: "ses_x", payment_in_progress: "true" },
          })),
        409,
        "Payment in progress",
      ],
    ];
    for (const [name, arrange, status, heading] of startPaymentErrors) {
      it(`when StartPayment fails (${name}), then a ${status} page`, async () => {
        const { token } = await createPayableSession(t);
        const { cookie, csrf } = await loadPage(token);
        arrange();
        const res = await post(token, "pay", { csrf, lang: "en" }, cookie);
        const html = expectCheckoutPage(res, status);
        expect(headingOf(html)).toBe(heading);
        expect(html).not.toContain("problem");
      });
    }

    it("when the session was paid meanwhile, then 409 and a link back to the page showing it", async () => {
      const { token } = await createPayableSession(t);
      const { cookie, csrf } = await loadPage(token);
      const first = await post(token, "pay", { csrf }, cookie);
      const orderId = first.headers.location!.split("/").pop()!;
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "visa", lastFour: "4242" });
      await t.sessions.settleAttempt({ acquirerOrderId: orderId, source: 2 } as never);
      const res = await post(token, "pay", { csrf }, cookie, { "accept-language": "fr" });
      const html = expectCheckoutPage(res, 409);
      expect(headingOf(html)).toBe("Ce paiement est déjà terminé ou clos");
      expect(html).toContain(`href="/checkout/${token}">Retour à la page de paiement</a>`);
    });

    it("when the link is unknown, then 404 page", async () => {
      const { token } = await createPayableSession(t);
      const { cookie, csrf } = await loadPage(token);
      // The service no longer knows the link: its answer for a token it never issued.
      t.sessions.failWith = GatewayError.notFound("checkout", token);
      expectCheckoutPage(await post(token, "pay", { csrf }, cookie), 404);
    });
  });

  describe("Cancel", () => {
    it("when the merchant gave a cancel_url, then 303 there and the session is NOT canceled", async () => {
      const { session, token } = await createPayableSession(t, {
        cancelUrl: "https://shop.example/cart?step=2",
      });
      const { cookie, csrf } = await loadPage(token);
      const res = await post(token, "cancel", { csrf }, cookie);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe("https://shop.example/cart?step=2");
      expect((await t.sessions.get(session.id)).status).toBe(session.status);
    });

    it("when there is no cancel_url, then back to the page with a 'canceled' note in a live region, still payable", async () => {
      const { token } = await createPayableSession(t);
      const { cookie, csrf } = await loadPage(token);
      const res = await post(token, "cancel", { csrf }, cookie);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/checkout/${token}?canceled=1`);
      const page = await t.app.inject({
        method: "GET",
        url: res.headers.location as string,
        headers: { cookie },
      });
      const html = expectCheckoutPage(page, 200);
      expect(html).toMatch(
        /<div class="status" role="status" aria-live="polite"><div class="status-box warning"><p>You left the payment\. Nothing was charged\./,
      );
      expect(html).toContain("/pay");
    });

    it("when the CSRF token is wrong, then 403 and the buyer stays", async () => {
      const { token } = await createPayableSession(t, { cancelUrl: "https://shop.example/cart" });
      const { cookie } = await loadPage(token);
      expectCheckoutPage(await post(token, "cancel", { csrf: "forged" }, cookie), 403);
    });

    it("when the page is stale (the session closed), then back to the page that says so", async () => {
      const { session, token } = await createPayableSession(t, { cancelUrl: "https://shop.example/cart" });
      const { cookie, csrf } = await loadPage(token);
      await t.sessions.expireSession(session.id);
      const res = await post(token, "cancel", { csrf }, cookie);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/checkout/${token}`);
    });
  });
});
