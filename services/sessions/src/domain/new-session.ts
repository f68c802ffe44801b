import { SETTLEMENT_CURRENCY } from "@gateway/money";
import { newId } from "@gateway/platform";
import { mintCheckoutLink } from "./checkout-link.js";
import { newOrderNumber } from "./order-number.js";
import type { AccountScope, Session } from "./session.js";
import { linkExpiryDueAtFor } from "./sweep-schedule.js";
import type { ValidCreateSession } from "./validation/create-session-input.js";

export interface Lifetimes {
  sessionLifetimeMs: number;
  checkoutLinkLifetimeMs: number;
}

/**
 * A new CREATED session for a valid request, with fresh generated values (id, order number,
 * first checkout link). Calling it again for the same request draws new ones, which is how the
 * caller recovers from a collision on a generated value.
 */
export function newSession(
  scope: AccountScope,
  req: ValidCreateSession,
  now: Date,
  lifetimes: Lifetimes,
): Session {
  const expiresAt = new Date(now.getTime() + lifetimes.sessionLifetimeMs);
  const link = mintCheckoutLink(now, lifetimes.checkoutLinkLifetimeMs, expiresAt);
  const linkExpiryDueAt = linkExpiryDueAtFor(link, expiresAt);
  return {
    id: newId("ps"),
    scope: { merchantId: scope.merchantId, livemode: scope.livemode },
    merchantReference: req.merchantReference,
    orderNumber: newOrderNumber(),
    ...(req.orderId !== undefined ? { orderId: req.orderId } : {}),
    amountMinor: req.amountMinor,
    currency: SETTLEMENT_CURRENCY,
    original: { ...req.original },
    ...(req.description !== undefined ? { description: req.description } : {}),
    items: req.items.map((item) => ({ ...item })),
    status: "CREATED",
    buyer: { ...req.buyer },
    ...(req.metadataJson !== undefined ? { metadataJson: req.metadataJson } : {}),
    ...(req.returnUrl !== undefined ? { returnUrl: req.returnUrl } : {}),
    ...(req.cancelUrl !== undefined ? { cancelUrl: req.cancelUrl } : {}),
    ...(req.webhookUrl !== undefined ? { webhookUrl: req.webhookUrl } : {}),
    maxAttempts: req.maxAttempts,
    checkoutLinks: [link],
    attempts: [],
    expiresAt,
    createdAt: now,
    updatedAt: now,
    version: 1,
    lastEventSequence: 0,
    ...(linkExpiryDueAt ? { linkExpiryDueAt } : {}),
  };
}
