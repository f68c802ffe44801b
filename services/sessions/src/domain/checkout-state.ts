import { GatewayError } from "@gateway/platform";
import type { CheckoutLink, Session } from "./session.js";

/** What the hosted page shows and may do (the proto's CheckoutState, in domain words). */
export type CheckoutState = "PAYABLE" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "CLOSED" | "LINK_EXPIRED";

/** A session past its lifetime is closed for payment, even before expiry has been recorded. */
export function isPastLifetime(session: Session, now: Date): boolean {
  return now.getTime() >= session.expiresAt.getTime();
}

export function isLinkExpired(link: CheckoutLink, now: Date): boolean {
  return now.getTime() >= link.expiresAt.getTime();
}

/** The link with this token, if the session has one. */
export function linkOf(session: Session, token: string): CheckoutLink | undefined {
  return session.checkoutLinks.find((link) => link.token === token);
}

/**
 * The state of the page for `link`. Outcomes first (a buyer coming back after paying sees
 * the success even once the link has expired), then closed sessions, then the link's own
 * lifetime, which is enforced here: an expired link shows LINK_EXPIRED even while the
 * session can still be paid through a fresh one.
 */
export function checkoutStateOf(session: Session, link: CheckoutLink, now: Date): CheckoutState {
  switch (session.status) {
    case "SUCCEEDED":
      return "SUCCEEDED";
    case "FAILED":
      return "FAILED";
    case "EXPIRED":
    case "CANCELED":
      return "CLOSED";
    case "CREATED":
    case "PENDING":
    case "PROCESSING":
      if (isPastLifetime(session, now)) return "CLOSED";
      if (isLinkExpired(link, now)) return "LINK_EXPIRED";
      return session.status === "PROCESSING" ? "PROCESSING" : "PAYABLE";
  }
}

/**
 * Refuses a payment through `link` when time has closed it: the session's lifetime is over
 * (SESSION_TERMINAL, as once expiry is recorded) or this link's is (INVALID_STATE; the
 * merchant can mint a fresh link while the session is payable).
 */
export function assertLinkUsable(session: Session, link: CheckoutLink, now: Date): void {
  if (isPastLifetime(session, now)) {
    throw new GatewayError("SESSION_TERMINAL", "The session has expired and can no longer be paid.", {
      metadata: { session_id: session.id, status: "EXPIRED" },
    });
  }
  if (isLinkExpired(link, now)) {
    throw new GatewayError("INVALID_STATE", "This checkout link has expired.", {
      metadata: { session_id: session.id, checkout_state: "LINK_EXPIRED" },
    });
  }
}
