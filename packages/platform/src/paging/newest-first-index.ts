import type { AccountScopeValue } from "../errors/account-scope.js";
import { type ListPosition, newestFirst, type PageWindow } from "./newest-first-page.js";

const accountKey = (scope: AccountScopeValue): string => JSON.stringify([scope.merchantId, scope.livemode]);

/** The first place in `positions` (oldest first) that is not older than `position`. */
function placeOf(positions: readonly ListPosition[], position: ListPosition): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newestFirst(positions[middle]!, position) > 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The list positions (createdAt, id) of each account's records, kept in order, for the in-memory
 * stores' newest-first lists: a page reads from the newest down and stops once it is full,
 * instead of sorting every record the store keeps (docs/api/limits.md#paging).
 * Records mostly arrive newest, so adding one is usually an append.
 */
export class NewestFirstIndex {
  /** By account and mode: positions, oldest first. */
  private readonly byAccount = new Map<string, ListPosition[]>();

  add(scope: AccountScopeValue, position: ListPosition): void {
    const account = accountKey(scope);
    const positions = this.byAccount.get(account) ?? [];
    this.byAccount.set(account, positions);
    const item = { createdAt: new Date(position.createdAt.getTime()), id: position.id };
    positions.splice(placeOf(positions, item), 0, item);
  }

  delete(scope: AccountScopeValue, position: ListPosition): void {
    const account = accountKey(scope);
    const positions = this.byAccount.get(account);
    if (!positions) return;
    const at = placeOf(positions, position);
    if (positions[at]?.id !== position.id) return;
    positions.splice(at, 1);
    if (positions.length === 0) this.byAccount.delete(account);
  }

  /** The ids of the account in `scope`, newest first, strictly after `after` when given. */
  *idsNewestFirst(scope: AccountScopeValue, after?: ListPosition): Generator<string> {
    const positions = this.byAccount.get(accountKey(scope)) ?? [];
    const start = after === undefined ? positions.length : placeOf(positions, after);
    for (let at = start - 1; at >= 0; at--) yield positions[at]!.id;
  }

  /**
   * One page of the account's records in `scope`, newest first: walks down from just below
   * `window.after`, keeps what `matches`, and stops once it holds one more than the page (for
   * `hasMore`) or passes `createdGte`, below which every record that follows is older still.
   */
  page<T extends ListPosition>(
    scope: AccountScopeValue,
    window: PageWindow,
    o: { load: (id: string) => T; matches: (record: T) => boolean; createdGte?: Date },
  ): { items: T[]; hasMore: boolean } {
    const found: T[] = [];
    for (const id of this.idsNewestFirst(scope, window.after)) {
      const record = o.load(id);
      if (o.createdGte !== undefined && record.createdAt.getTime() < o.createdGte.getTime()) break;
      if (!o.matches(record)) continue;
      found.push(record);
      if (found.length > window.limit) break;
    }
    return { items: found.slice(0, window.limit), hasMore: found.length > window.limit };
  }
}
