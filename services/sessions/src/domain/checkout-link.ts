import { randomBase62 } from "@gateway/platform";
import type { CheckoutLink } from "./session.js";

/**
 * A fresh hosted-page link: an unguessable token (32 base62 characters, ~190 bits) valid for
 * the link lifetime, but never beyond the session's own expiry.
 */
export function mintCheckoutLink(now: Date, linkLifetimeMs: number, sessionExpiresAt: Date): CheckoutLink {
  const expiresAt = Math.min(now.getTime() + linkLifetimeMs, sessionExpiresAt.getTime());
  return { token: randomBase62(32), createdAt: now, expiresAt: new Date(expiresAt) };
}

/** The public address of a link: `<public base>/checkout/<token>`. */
export function checkoutUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/checkout/${token}`;
}

/** Links of `links` still valid at `now`: what the per-session link limit counts. */
export function unexpiredLinks(links: readonly CheckoutLink[], now: Date): CheckoutLink[] {
  return links.filter((link) => link.expiresAt.getTime() > now.getTime());
}
