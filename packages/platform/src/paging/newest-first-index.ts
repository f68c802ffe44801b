import type { AccountScopeValue } from "../errors/account-scope.js";
import type { ListPosition, PageWindow } from "./newest-first-page.js";

const accountKey = (scope: AccountScopeValue): string => JSON.stringify([scope.merchantId, scope.livemode]);

/**
 * One account's positions, oldest first, as two parallel arrays: epoch ms (kept by V8 as raw
 * doubles) and ids. One object per position would be three heap objects (the position, its
 * date, the date's number) for every record kept, which a major collection traces
 * (docs/decisions.md#sessions-in-memory-are-kept-encoded).
 */
interface AccountPositions {
  times: number[];
  ids: string[];
}

/** Whether (time, id) is older than `position`: an earlier time, or the same time and a lower id. */
function olderThan(time: number, id: string, position: ListPosition): boolean {
  const byTime = position.createdAt.getTime() - time;
  if (byTime !== 0) return byTime > 0;
  return id < position.id;
}

/** The first place in `positions` (oldest first) that is not older than `position`. */
function placeOf(positions: AccountPositions, position: ListPosition): number {
  let low = 0;
  let high = positions.ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (olderThan(positions.times[middle]!, positions.ids[middle]!, position)) low = middle + 1;
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
  /** By account and mode. */
  private readonly byAccount = new Map<string, AccountPositions>();

  add(scope: AccountScopeValue, position: ListPosition): void {
    const account = accountKey(scope);
    let positions = this.byAccount.get(account);
    if (!positions) {
      positions = { times: [], ids: [] };
      this.byAccount.set(account, positions);
    }
    const at = placeOf(positions, position);
    if (at === positions.ids.length) {
      positions.times.push(position.createdAt.getTime());
      positions.ids.push(position.id);
    } else {
      positions.times.splice(at, 0, position.createdAt.getTime());
      positions.ids.splice(at, 0, position.id);
    }
  }

  delete(scope: AccountScopeValue, position: ListPosition): void {
    const account = accountKey(scope);
    const positions = this.byAccount.get(account);
    if (!positions) return;
    const at = placeOf(positions, position);
    if (positions.ids[at] !== position.id) return;
    positions.times.splice(at, 1);
    positions.ids.splice(at, 1);
    if (positions.ids.length === 0) this.byAccount.delete(account);
  }

  /**
   * One page of the account's records in `scope`, newest first: walks down from just below
   * `window.after`, keeps what `matches`, and stops once it holds one more than the page (for
   * `hasMore`) or passes `createdGte`, below which every record that follows is older still.
   * Times are the index's own, so a record need not carry its creation time as a Date.
   */
  page<T>(
    scope: AccountScopeValue,
    window: PageWindow,
    o: { load: (id: string) => T; matches: (record: T) => boolean; createdGte?: Date },
  ): { items: T[]; hasMore: boolean } {
    const positions = this.byAccount.get(accountKey(scope));
    if (!positions) return { items: [], hasMore: false };
    const found: T[] = [];
    const oldest = o.createdGte?.getTime() ?? Number.NEGATIVE_INFINITY;
    const start = window.after === undefined ? positions.ids.length : placeOf(positions, window.after);
    for (let at = start - 1; at >= 0 && positions.times[at]! >= oldest; at--) {
      const record = o.load(positions.ids[at]!);
      if (!o.matches(record)) continue;
      found.push(record);
      if (found.length > window.limit) break;
    }
    return { items: found.slice(0, window.limit), hasMore: found.length > window.limit };
  }
}
