import { type Clock, GatewayError } from "@gateway/platform";
import { unexpiredLinks, withNewCurrentLink } from "../domain/checkout-link.js";
import { isPastLifetime } from "../domain/checkout-state.js";
import type { AccountScope, CheckoutLink } from "../domain/session.js";
import { assertPayable } from "../domain/session-state-machine.js";
import { contention, MAX_ROUNDS } from "./payment-deps.js";
import type { SessionRepository } from "./ports.js";

export interface CreateCheckoutDeps {
  repo: SessionRepository;
  clock: Clock;
  checkoutLinkLifetimeMs: number;
  /** Most unexpired links a session may have at once. */
  checkoutLinkLimit: number;
}

/**
 * A new hosted-page link for a payable session (POST .../checkout/). It becomes the session's
 * current `checkout_url`; earlier links keep working until they expire. At most
 * `checkoutLinkLimit` unexpired links at once (CHECKOUT_LIMIT_EXCEEDED): expired ones do not
 * count, so a merchant can always get a fresh link once the old ones ran out.
 */
export async function createCheckout(
  deps: CreateCheckoutDeps,
  scope: AccountScope,
  sessionId: string,
): Promise<CheckoutLink> {
  let session = sessionId === "" ? undefined : await deps.repo.findById(scope, sessionId);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (!session) throw GatewayError.notFound("session", sessionId);
    assertPayable(session);
    const now = deps.clock.now();
    if (isPastLifetime(session, now)) {
      throw new GatewayError("SESSION_TERMINAL", "The session has expired and can no longer be paid.", {
        metadata: { session_id: session.id, status: "EXPIRED" },
      });
    }
    if (unexpiredLinks(session.checkoutLinks, now).length >= deps.checkoutLinkLimit) {
      throw new GatewayError(
        "CHECKOUT_LIMIT_EXCEEDED",
        `A session can have at most ${deps.checkoutLinkLimit} active checkout links.`,
        {
          metadata: { session_id: session.id, limit: String(deps.checkoutLinkLimit) },
        },
      );
    }
    const { link, changes } = withNewCurrentLink(session, now, deps.checkoutLinkLifetimeMs);
    const result = await deps.repo.updateIf(session, changes);
    if (result.updated) return link;
    session = result.current;
  }
  throw contention(sessionId);
}
