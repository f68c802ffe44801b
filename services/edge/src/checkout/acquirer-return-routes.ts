import type { Client } from "@connectrpc/connect";
import { errorCatalog, fromConnectError } from "@gateway/platform";
import {
  type SessionService,
  SessionStatus,
  type SettleAttemptResponse,
  SettlementSource,
} from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import type { CheckoutPageRenderer } from "./checkout-page-renderer.js";
import { singleValue } from "./form-body.js";
import { PageRequest } from "./page-request.js";
import { httpUrlOrUndefined, redirectSeeOther } from "./security-headers.js";

/** Acquirer order ids are UUID-like; this bounds what reaches the sessions service. */
export const ACQUIRER_ORDER_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** How long the "confirming your payment" page waits before it asks again. */
export const CONFIRMING_REFRESH_SECONDS = 5;

export interface AcquirerReturnRoutesDeps {
  sessions: Client<typeof SessionService>;
  renderer: CheckoutPageRenderer;
  secureCookies: boolean;
  /** The gateway's own origin: redirects there are plain 303s. */
  publicOrigin: string;
}

/**
 * GET /checkout/return?orderId=…: where the acquirer's card page sends the buyer (its return
 * and fail URL alike). The attempt is settled from the acquirer's own status (never from the
 * URL), then the buyer goes where the sessions service says: return_url, cancel_url, or the
 * checkout page to retry (a 303 on this origin, a self-forwarding page towards the merchant).
 * While the acquirer cannot be reached the buyer sees a page that asks again by itself (meta
 * refresh), never an error.
 */
export function registerAcquirerReturnRoutes(scope: FastifyInstance, deps: AcquirerReturnRoutesDeps): void {
  const { sessions, renderer, secureCookies, publicOrigin } = deps;

  scope.get<{ Querystring: Record<string, unknown> }>("/return", async (request, reply) => {
    const page = new PageRequest(request, secureCookies);
    const orderId = singleValue(request.query.orderId);
    if (orderId === undefined || !ACQUIRER_ORDER_ID.test(orderId)) {
      return renderer.sendNotice(reply, page, 400, {
        notice: page.m.badRequest,
        body: page.m.notFound.body,
        tone: "alert",
      });
    }
    let settled: SettleAttemptResponse;
    try {
      settled = await sessions.settleAttempt({ acquirerOrderId: orderId, source: SettlementSource.RETURN });
    } catch (err) {
      const error = fromConnectError(err);
      if (error.reason !== "PROCESSOR_UNAVAILABLE" && error.reason !== "SERVICE_UNAVAILABLE") throw error;
      request.log.warn(
        { err: error, acquirerOrderId: orderId },
        "payment not confirmed yet; the buyer's page will ask again",
      );
      const again = `/checkout/return?orderId=${encodeURIComponent(orderId)}`;
      reply.header("retry-after", String(CONFIRMING_REFRESH_SECONDS));
      return renderer.sendNotice(
        reply,
        page,
        errorCatalog[error.reason].httpStatus,
        { notice: page.m.confirming, tone: "warning", actions: [{ label: page.m.checkAgain, href: again }] },
        { refresh: { seconds: CONFIRMING_REFRESH_SECONDS, url: again } },
      );
    }
    const target =
      httpUrlOrUndefined(settled.redirectUrl) ?? httpUrlOrUndefined(settled.session?.checkoutUrl);
    if (target !== undefined && new URL(target).origin === publicOrigin) {
      page.applyCookies(reply);
      return redirectSeeOther(reply, target);
    }
    // Towards the merchant's site, a page that states the outcome and moves on by itself rather
    // than a 303: the buyer arrives here by the redirect that follows the acquirer's card form,
    // and browsers check every hop of that chain against the card page's CSP form-action, which
    // names the gateway (its return URL) but cannot name every merchant.
    const { m } = page;
    const session = settled.session;
    const frame = {
      testMode: session?.scope?.livemode !== true,
      ...(target === undefined ? {} : { refresh: { seconds: 0, url: target } }),
    };
    const actions = target === undefined ? [] : [{ label: m.continueToMerchant, href: target }];
    switch (session?.status) {
      case SessionStatus.SUCCEEDED:
        return renderer.sendNotice(
          reply,
          page,
          200,
          { notice: m.succeeded, tone: "success", actions },
          frame,
        );
      case SessionStatus.FAILED:
        return renderer.sendNotice(reply, page, 200, { notice: m.failed, tone: "alert", actions }, frame);
      case SessionStatus.PROCESSING:
        return renderer.sendNotice(
          reply,
          page,
          200,
          { notice: m.processing, tone: "warning", actions },
          frame,
        );
      default:
        return renderer.sendNotice(reply, page, 200, { notice: m.closed, actions }, frame);
    }
  });
}
