import type { Client } from "@connectrpc/connect";
import { CheckoutState, type GetCheckoutResponse, type Session, type SessionService } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { CheckoutPageRenderer, PageFrame } from "./checkout-page-renderer.js";
import { CSRF_FIELD, type CsrfTokens } from "./csrf.js";
import { formOf, singleValue } from "./form-body.js";
import { PageRequest } from "./page-request.js";
import { httpUrlOrUndefined, originOf, redirectSeeOther } from "./security-headers.js";
import { withIsolatedValues } from "./views/isolated-values.js";
import type { NoticeAction } from "./views/notice-page.js";
import { renderSummaryMain } from "./views/summary-page.js";

/** Link tokens are opaque URL-safe strings; anything else cannot be one (404 without a service call). */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{8,128}$/;

export function checkoutPath(token: string): string {
  return `/checkout/${encodeURIComponent(token)}`;
}

export interface CheckoutPageRoutesDeps {
  sessions: Client<typeof SessionService>;
  renderer: CheckoutPageRenderer;
  csrf: CsrfTokens;
  secureCookies: boolean;
}

interface TokenParams {
  token: string;
}

/**
 * The buyer's pages: GET /checkout/:token (what the link shows, by CheckoutState), POST .../pay
 * (to the acquirer's card page) and POST .../cancel (back to the merchant). Leaving with Cancel
 * does not cancel the session: only the merchant cancels (API); the buyer may come back with
 * the same link while it is valid, and an unpaid session expires on its own.
 */
export function registerCheckoutPageRoutes(scope: FastifyInstance, deps: CheckoutPageRoutesDeps): void {
  const { sessions, renderer, csrf, secureCookies } = deps;

  const sendNotFound = (reply: FastifyReply, page: PageRequest) =>
    renderer.sendNotice(reply, page, 404, { notice: page.m.notFound });

  const sendCsrfRejected = (reply: FastifyReply, page: PageRequest, token: string) =>
    renderer.sendNotice(
      reply,
      page,
      403,
      {
        notice: page.m.csrfRejected,
        tone: "alert",
        actions: [{ label: page.m.backToPayment, href: checkoutPath(token) }],
      },
      { languageHref: page.languageHrefFor(checkoutPath(token)) },
    );

  scope.get<{ Params: TokenParams; Querystring: Record<string, unknown> }>(
    "/:token",
    async (request, reply) => {
      const page = new PageRequest(request, secureCookies);
      const { token } = request.params;
      if (!LINK_TOKEN.test(token)) return sendNotFound(reply, page);
      const checkout = await sessions.getCheckout({ token });
      const session = checkout.session;
      if (!session) return sendNotFound(reply, page);
      return sendCheckoutState(
        reply,
        page,
        token,
        checkout,
        session,
        singleValue(request.query.canceled) === "1",
      );
    },
  );

  scope.post<{ Params: TokenParams }>("/:token/pay", async (request, reply) => {
    const form = formOf(request.body);
    const page = new PageRequest(request, secureCookies, form.get("lang") ?? undefined);
    const { token } = request.params;
    if (!LINK_TOKEN.test(token)) return sendNotFound(reply, page);
    if (!csrf.verify(token, page.csrfNonce(), form.get(CSRF_FIELD) ?? undefined))
      return sendCsrfRejected(reply, page, token);
    const started = await sessions.startPayment({ token, language: page.language });
    const target = httpUrlOrUndefined(started.redirectUrl);
    if (target === undefined) throw new Error("StartPayment answered without an http(s) redirect_url");
    page.applyCookies(reply);
    return redirectSeeOther(reply, target);
  });

  scope.post<{ Params: TokenParams }>("/:token/cancel", async (request, reply) => {
    const form = formOf(request.body);
    const page = new PageRequest(request, secureCookies);
    const { token } = request.params;
    if (!LINK_TOKEN.test(token)) return sendNotFound(reply, page);
    if (!csrf.verify(token, page.csrfNonce(), form.get(CSRF_FIELD) ?? undefined))
      return sendCsrfRejected(reply, page, token);
    const checkout = await sessions.getCheckout({ token });
    if (!checkout.session) return sendNotFound(reply, page);
    page.applyCookies(reply);
    // The form only exists on a payable page; from a stale one, the page shows what happened since.
    if (checkout.state !== CheckoutState.PAYABLE) return redirectSeeOther(reply, checkoutPath(token));
    const cancelUrl = httpUrlOrUndefined(checkout.session.cancelUrl);
    return redirectSeeOther(reply, cancelUrl ?? `${checkoutPath(token)}?canceled=1`);
  });

  function sendCheckoutState(
    reply: FastifyReply,
    page: PageRequest,
    token: string,
    checkout: GetCheckoutResponse,
    session: Session,
    canceledNote: boolean,
  ): FastifyReply {
    const { m } = page;
    const merchantName = checkout.merchantName !== "" ? checkout.merchantName : session.orderNumber;
    const frame: PageFrame = {
      merchantName: checkout.merchantName,
      testMode: session.scope?.livemode !== true,
    };
    const returnUrl = httpUrlOrUndefined(session.returnUrl);
    const cancelUrl = httpUrlOrUndefined(session.cancelUrl);
    const backToMerchant = (url: string | undefined): NoticeAction[] =>
      url === undefined
        ? []
        : [{ label: withIsolatedValues(m.returnToMerchant, merchantName), href: url, kind: "secondary" }];

    switch (checkout.state) {
      case CheckoutState.PAYABLE: {
        const csrfToken = csrf.tokenFor(token, page.ensureCsrfNonce());
        const main = renderSummaryMain({
          language: page.language,
          m,
          session,
          merchantName,
          payAction: `${checkoutPath(token)}/pay`,
          cancelAction: `${checkoutPath(token)}/cancel`,
          csrfToken,
          cancelLeaves: cancelUrl !== undefined,
          canceledNote,
          ...(checkout.lastFailureCode === ""
            ? {}
            : { decline: { failureCode: checkout.lastFailureCode, attemptsLeft: checkout.attemptsLeft } }),
        });
        const cancelOrigin = originOf(cancelUrl);
        return renderer.send(reply, page, 200, m.pageTitle(merchantName), main, {
          ...frame,
          ...(cancelOrigin === undefined ? {} : { extraFormActions: [cancelOrigin] }),
        });
      }
      case CheckoutState.PROCESSING:
        return renderer.sendNotice(
          reply,
          page,
          200,
          {
            notice: m.processing,
            tone: "warning",
            actions: [{ label: m.checkAgain, href: checkoutPath(token) }],
          },
          frame,
        );
      case CheckoutState.SUCCEEDED:
        return renderer.sendNotice(
          reply,
          page,
          200,
          {
            notice: m.succeeded,
            body:
              checkout.merchantName === ""
                ? m.succeeded.body
                : withIsolatedValues(m.succeededBody, checkout.merchantName),
            tone: "success",
            actions:
              returnUrl === undefined
                ? []
                : [{ label: withIsolatedValues(m.returnToMerchant, merchantName), href: returnUrl }],
          },
          frame,
        );
      case CheckoutState.FAILED:
        return renderer.sendNotice(
          reply,
          page,
          200,
          { notice: m.failed, tone: "alert", actions: backToMerchant(cancelUrl) },
          frame,
        );
      case CheckoutState.CLOSED:
        return renderer.sendNotice(
          reply,
          page,
          200,
          { notice: m.closed, actions: backToMerchant(cancelUrl) },
          frame,
        );
      case CheckoutState.LINK_EXPIRED:
        // 410 Gone: this link will not work again; the merchant can issue a new one.
        return renderer.sendNotice(
          reply,
          page,
          410,
          { notice: m.linkExpired, actions: backToMerchant(cancelUrl) },
          frame,
        );
      default:
        throw new Error(`GetCheckout answered an unknown state ${String(checkout.state)}`);
    }
  }
}
