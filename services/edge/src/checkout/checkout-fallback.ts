import type { FastifyReply, FastifyRequest } from "fastify";

/** True for the hosted checkout's paths, whose every answer is an HTML page. */
export function isCheckoutUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  return url === "/checkout" || url.startsWith("/checkout/") || url.startsWith("/checkout?");
}

/** Sends the checkout's page for an answer decided before routing (a malformed URL, an over-long token). */
export type CheckoutFallbackPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: 400 | 404,
) => FastifyReply;

/**
 * The checkout's fallback page, handed to handlers created before the checkout is registered
 * (fastify's frameworkErrors, the root not-found handler): until `set`, nothing is claimed.
 */
export class CheckoutFallback {
  private page: CheckoutFallbackPage | undefined;

  set(page: CheckoutFallbackPage): void {
    this.page = page;
  }

  /** The page sender when `request` is a checkout request and the checkout is registered. */
  pageFor(request: FastifyRequest): CheckoutFallbackPage | undefined {
    return isCheckoutUrl(request.raw.url) ? this.page : undefined;
  }
}
