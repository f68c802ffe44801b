import { GatewayError } from "@gateway/platform";
import { SettlementSource } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { CALLBACK_DEADLINE_MS } from "../../src/checkout/acquirer-callback-routes.js";
import { createTestEdge, type TestEdge } from "../fakes/edge-test-harness.js";
import {
  acquirerOf,
  cookiesFrom,
  createPayableSession,
  csrfFrom,
  expectCheckoutPage,
  form,
  headingOf,
  type SessionFields,
} from "./checkout-test-support.js";

describe("back from the acquirer", () => {
  let t: TestEdge;

  beforeEach(() => {
    t = createTestEdge();
  });

  /** A session whose buyer pressed Pay; returns the acquirer order id. */
  async function startedPayment(fields: SessionFields = {}) {
    const { session, token } = await createPayableSession(t, fields);
    const page = await t.app.inject({ method: "GET", url: `/checkout/${token}` });
    const body = form({ csrf: csrfFrom(page.body) });
    const paid = await t.app.inject({
      method: "POST",
      url: `/checkout/${token}/pay`,
      payload: body.payload,
      headers: { ...body.headers, cookie: cookiesFrom(page) },
    });
    return { session, token, orderId: paid.headers.location!.split("/").pop()! };
  }

  const returnFrom = (orderId: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: `/checkout/return?orderId=${encodeURIComponent(orderId)}`, headers });

  describe("GET /checkout/return (the buyer's browser)", () => {
    /** Where a page that forwards the buyer by itself (meta refresh) sends them. */
    const forwardedTo = (html: string) =>
      /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, "&");

    it("when the payment succeeded, then the attempt is settled (RETURN) and the buyer is forwarded to return_url", async () => {
      const { orderId } = await startedPayment({ returnUrl: "https://shop.example/thanks?order=7&x=1" });
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "visa", lastFour: "4242" });
      const res = await returnFrom(orderId, { "accept-language": "fr" });
      // Not a 303: the acquirer card page's CSP form-action would block a hop to the merchant's origin.
      const html = expectCheckoutPage(res, 200);
      expect(headingOf(html)).toBe("Paiement réussi");
      expect(forwardedTo(html)).toBe("https://shop.example/thanks?order=7&x=1");
      expect(html).toContain(
        '<a class="button primary" href="https://shop.example/thanks?order=7&amp;x=1">Continuer vers le site du marchand</a>',
      );
      expect(t.sessions.settleRequests).toEqual([
        { acquirerOrderId: orderId, source: SettlementSource.RETURN },
      ]);
    });

    it("when the next page is on the gateway's own origin, then a plain 303", async () => {
      t = createTestEdge({ checkout: { publicUrl: "http://localhost:8080" } });
      const { orderId } = await startedPayment({ returnUrl: "http://localhost:8080/merchant-on-same-host" });
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "visa", lastFour: "4242" });
      const res = await returnFrom(orderId);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe("http://localhost:8080/merchant-on-same-host");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["cache-control"]).toBe("no-store");
    });

    it("when declined with retries left, then 303 back to the checkout page, which explains the decline", async () => {
      const { orderId, token } = await startedPayment({ maxAttempts: 2 });
      acquirerOf(t).decide(orderId, { status: "FAILED", failureCode: "expired_card" });
      const res = await returnFrom(orderId);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`http://localhost:8080/checkout/${token}`);
      const page = await t.app.inject({
        method: "GET",
        url: `/checkout/${token}`,
        headers: { "accept-language": "fr" },
      });
      expect(page.body).toContain("Votre carte a expiré.");
      expect(page.body).toContain("Il vous reste 1 essai.");
    });

    it("when the last attempt is declined, then a 'payment failed' page forwarding to cancel_url", async () => {
      const { orderId } = await startedPayment({ maxAttempts: 1, cancelUrl: "https://shop.example/failed" });
      acquirerOf(t).decide(orderId, { status: "FAILED", failureCode: "card_declined" });
      const html = expectCheckoutPage(await returnFrom(orderId), 200);
      expect(headingOf(html)).toBe("Payment failed");
      expect(forwardedTo(html)).toBe("https://shop.example/failed");
    });

    it("when there is nowhere to go (no merchant URL, no link left), then the outcome is shown here", async () => {
      const { orderId } = await startedPayment({ maxAttempts: 1 });
      acquirerOf(t).decide(orderId, { status: "FAILED", failureCode: "card_declined" });
      const res = await returnFrom(orderId);
      // The fake's redirect_url is then the checkout page itself, on the gateway's origin.
      expect(res.statusCode).toBe(303);
      const page = await t.app.inject({
        method: "GET",
        url: new URL(res.headers.location as string).pathname,
      });
      expect(headingOf(expectCheckoutPage(page, 200))).toBe("Payment failed");
    });

    it("when the acquirer cannot be reached, then a 'we are confirming your payment' page that refreshes itself, not a 500", async () => {
      const { orderId, token } = await startedPayment();
      acquirerOf(t).down = true;
      const res = await returnFrom(orderId, { "accept-language": "ar" });
      const html = expectCheckoutPage(res, 502);
      expect(headingOf(html)).toBe("نحن نؤكد عملية الدفع");
      expect(html).toContain('<html lang="ar" dir="rtl">');
      expect(html).toContain(
        `<meta http-equiv="refresh" content="5; url=/checkout/return?orderId=${orderId}">`,
      );
      expect(html).toContain(`href="/checkout/return?orderId=${orderId}">تحقّق مرة أخرى</a>`);
      expect(res.headers["retry-after"]).toBe("5");
      acquirerOf(t).down = false;
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "visa", lastFour: "4242" });
      const confirmed = await returnFrom(orderId);
      expect(confirmed.statusCode).toBe(303);
      expect(confirmed.headers.location).toBe(`http://localhost:8080/checkout/${token}`);
    });

    it("when the sessions service is unreachable, then the same confirming page (503)", async () => {
      const { orderId } = await startedPayment();
      t.outage.sessions = true;
      const html = expectCheckoutPage(await returnFrom(orderId), 503);
      expect(headingOf(html)).toBe("We are confirming your payment");
      expect(html).toContain('<meta http-equiv="refresh"');
    });

    it("when the order id is unknown, missing or malformed, then 404/400 pages", async () => {
      expect(headingOf(expectCheckoutPage(await returnFrom("acq-unknown"), 404))).toBe(
        "Payment page not found",
      );
      expectCheckoutPage(await t.app.inject({ method: "GET", url: "/checkout/return" }), 400);
      expectCheckoutPage(await returnFrom("<script>"), 400);
      expectCheckoutPage(
        await t.app.inject({ method: "GET", url: "/checkout/return?orderId=a&orderId=b" }),
        400,
      );
    });

    it("when the buyer returns twice, then the outcome does not change", async () => {
      const { orderId } = await startedPayment({ returnUrl: "https://shop.example/thanks" });
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "visa", lastFour: "4242" });
      await returnFrom(orderId);
      acquirerOf(t).decide(orderId, { status: "FAILED", failureCode: "card_declined" });
      const again = expectCheckoutPage(await returnFrom(orderId), 200);
      expect(headingOf(again)).toBe("Payment successful");
      expect(forwardedTo(again)).toBe("https://shop.example/thanks");
    });
  });

  describe("/checkout/callback (the acquirer's server)", () => {
    const callback = (query: string, method: "GET" | "POST" = "GET") =>
      t.app.inject({ method, url: `/checkout/callback?${query}` });

    it("when notified by GET, then SettleAttempt(CALLBACK) and 200 OK as plain text", async () => {
      const { orderId, session } = await startedPayment();
      acquirerOf(t).decide(orderId, { status: "SUCCEEDED", cardBrand: "mastercard", lastFour: "4444" });
      const res = await callback(
        `mdOrder=${orderId}&orderNumber=${session.orderNumber}-1&operation=deposited&status=1`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(res.body).toBe("OK");
      expect(t.sessions.settleRequests).toEqual([
        { acquirerOrderId: orderId, source: SettlementSource.CALLBACK },
      ]);
    });

    it("when notified by a form POST, then the same", async () => {
      const { orderId } = await startedPayment();
      const body = form({ mdOrder: orderId, operation: "declinedByTimeout", status: "0" });
      const res = await t.app.inject({
        method: "POST",
        url: "/checkout/callback",
        payload: body.payload,
        headers: body.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(t.sessions.settleRequests.map((r) => r.source)).toEqual([SettlementSource.CALLBACK]);
    });

    it("when settling fails for now, then 503 so the acquirer retries", async () => {
      const { orderId } = await startedPayment();
      acquirerOf(t).down = true;
      const res = await callback(`mdOrder=${orderId}&operation=deposited&status=1`);
      expect(res.statusCode).toBe(503);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(res.headers["retry-after"]).toBe("1");
      t.sessions.failWith = new GatewayError("INTERNAL", "boom");
      expect((await callback(`mdOrder=${orderId}`)).statusCode).toBe(503);
      t.sessions.failWith = undefined;
      t.outage.sessions = true;
      expect((await callback(`mdOrder=${orderId}`)).statusCode).toBe(503);
    });

    it("when the acquirer is slow to answer, then 503 within the callback deadline rather than a hung request", async () => {
      const { orderId } = await startedPayment();
      acquirerOf(t).getOrderStatus = () => new Promise(() => undefined);
      const started = Date.now();
      const res = await callback(`mdOrder=${orderId}`);
      expect(res.statusCode).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(CALLBACK_DEADLINE_MS - 100);
      expect(Date.now() - started).toBeLessThan(CALLBACK_DEADLINE_MS + 2_000);
    });

    it("when mdOrder is missing or unknown, then 400 or 404: a retry cannot help", async () => {
      expect((await callback("operation=deposited")).statusCode).toBe(400);
      const unknown = await callback("mdOrder=acq-nobody");
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toBe("Unknown order\n");
    });

    it("when the callback body is JSON, then 400 as plain text", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/checkout/callback",
        payload: "{}",
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    });
  });
});
