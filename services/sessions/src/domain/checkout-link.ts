import { randomBase62 } from "@gateway/platform";
import type { CheckoutLink, Session, SessionChanges } from "./session.js";
import { linkExpiryDueAtFor } from "./sweep-schedule.js";

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

/**
 * A fresh link made the session's current one: the link and the changes that store it, with the
 * announcement of its expiry scheduled (the previous link, superseded, is not announced).
 */
export function withNewCurrentLink(
  session: Session,
  now: Date,
  linkLifetimeMs: number,
): { link: CheckoutLink; changes: SessionChanges } {
  const link = mintCheckoutLink(now, linkLifetimeMs, session.expiresAt);
  return {
    link,
    changes: {
      checkoutLinks: [...session.checkoutLinks, link],
      updatedAt: now,
      linkExpiryDueAt: linkExpiryDueAtFor(link, session.expiresAt),
    },
  };
}
