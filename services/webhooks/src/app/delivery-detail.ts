import { GatewayError } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import type { Delivery } from "../domain/delivery.js";
import type { WebhooksStores } from "./ports.js";

/** The attempts one detail page shows; an event rarely has more than its retry schedule. */
const MAX_ATTEMPTS_SHOWN = 100;

export interface DeliveryDetail {
  delivery: Delivery;
  /** The event's body as sent (the same bytes on every attempt). */
  body: string;
  /** Every attempt of the event, newest first (retries and resends). */
  attempts: Delivery[];
}

/** One delivery with its event's body and every attempt of that event; another account's is NOT_FOUND. */
export async function deliveryDetail(
  stores: WebhooksStores,
  scope: AccountScope,
  id: string,
): Promise<DeliveryDetail> {
  const delivery = await stores.deliveries.findById(id);
  if (
    !delivery ||
    delivery.scope.merchantId !== scope.merchantId ||
    delivery.scope.livemode !== scope.livemode
  )
    throw GatewayError.notFound("webhook delivery", id);
  const [event, attempts] = await Promise.all([
    stores.events.findById(delivery.eventId),
    stores.deliveries.list(scope, { eventId: delivery.eventId }, { limit: MAX_ATTEMPTS_SHOWN }),
  ]);
  return { delivery, body: event?.body ?? "", attempts: attempts.deliveries };
}
