import { GatewayError } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import type { Delivery } from "../domain/delivery.js";
import type { DeliveryFilter, DeliveryRepository } from "./ports.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListDeliveriesQuery {
  filter: DeliveryFilter;
  /** 0 (or absent) means the default page size. */
  limit?: number;
  /** Id of the last delivery of the previous page. */
  startingAfter?: string;
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
export async function listDeliveries(repo: DeliveryRepository, scope: AccountScope, query: ListDeliveriesQuery): Promise<DeliveryList> {
  const limit = query.limit === undefined || query.limit === 0 ? DEFAULT_PAGE_SIZE : query.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw GatewayError.validation([{ field: "limit", code: "invalid", message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.` }]);
  }
  let after: { createdAt: Date; id: string } | undefined;
  if (query.startingAfter !== undefined && query.startingAfter !== "") {
    const cursor = await repo.findInScope(scope, query.startingAfter);
    if (!cursor) {
      throw GatewayError.validation([
        { field: "starting_after", code: "invalid", message: "starting_after must be the id of a webhook delivery of this account." },
      ]);
    }
    after = { createdAt: cursor.createdAt, id: cursor.id };
  }
  const page = await repo.list(scope, query.filter, after ? { limit, after } : { limit });
  const last = page.deliveries.at(-1);
  return { deliveries: page.deliveries, hasMore: page.hasMore, ...(page.hasMore && last ? { nextCursor: last.id } : {}) };
}
