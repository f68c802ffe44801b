import { checkoutUrl } from "./checkout-link.js";
import type { PaymentAttempt, Session } from "./session.js";

/**
 * Where the buyer goes after the acquirer sent them back: return_url once the session
 * succeeded, cancel_url once it can no longer be paid (attempts exhausted, closed), and the
 * checkout page they started from while another try is possible or the outcome is pending.
 * Without the merchant URL, the checkout page, which shows the outcome.
 */
export function redirectAfterSettlement(
  session: Session,
  attempt: PaymentAttempt,
  publicBaseUrl: string,
): string {
  const page = checkoutUrl(publicBaseUrl, attempt.checkoutToken);
  switch (session.status) {
    case "SUCCEEDED":
      return session.returnUrl ?? page;
    case "FAILED":
    case "EXPIRED":
    case "CANCELED":
      return session.cancelUrl ?? page;
    case "CREATED":
    case "PENDING":
    case "PROCESSING":
      return page;
  }
}
