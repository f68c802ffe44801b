import { type PageQuery, readNewestFirstPage } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import type { Delivery } from "../domain/delivery.js";
import type { DeliveryFilter, DeliveryRepository } from "./ports.js";

export interface ListDeliveriesQuery extends PageQuery {
  filter: DeliveryFilter;
}

export interface DeliveryList {
  deliveries: Delivery[];
  hasMore: boolean;
  /** Id of the last delivery when there is more; pass it back as `startingAfter`. */
  nextCursor?: string;
}

/**
 * One page of an account's delivery attempts (docs/api/webhooks.md#delivery-history), most recent first. Confined to the
 * scope: the cursor must be a delivery of this account and mode, and nothing of another account
 * is ever listed.
 */
export async function listDeliveries(
  repo: DeliveryRepository,
  scope: AccountScope,
  query: ListDeliveriesQuery,
): Promise<DeliveryList> {
  const { items, ...page } = await readNewestFirstPage(query, {
    noun: "a webhook delivery",
    findCursor: (id) => repo.findInScope(scope, id),
    read: async (window) => {
      const { deliveries, hasMore } = await repo.list(scope, query.filter, window);
      return { items: deliveries, hasMore };
    },
  });
  return { deliveries: items, ...page };
}
