import { GatewayError } from "../errors/gateway-error.js";

// Cursor paging of every list (sessions, webhook deliveries): newest first by (createdAt, id),
// the cursor being the id of the last item of the previous page. Paging by position rather
// than by offset keeps pages stable while new items arrive. Every list of the REST API has
// the same `limit` rules: 1 to 100, 20 when absent.

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Where a page starts: strictly after this (createdAt, id) in newest-first order. */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

/** What a repository is asked for: at most `limit` items strictly after `after`. */
export interface PageWindow {
  limit: number;
  after?: ListPosition;
}

export interface PageQuery {
  /** 0 (or absent) means the default page size. */
  limit?: number;
  /** Id of the last item of the previous page. */
  startingAfter?: string;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Id of the last item when there is more; passed back as `startingAfter`. */
  nextCursor?: string;
}

export interface PageSource<T extends ListPosition> {
  /** What the list holds, for the cursor's error message ("a session", "a webhook delivery"). */
  noun: string;
  /** The cursor's item, only within the caller's scope (a cursor of another account is invalid). */
  findCursor(id: string): Promise<ListPosition | undefined>;
  read(window: PageWindow): Promise<{ items: T[]; hasMore: boolean }>;
}

/** One page of a newest-first list; a bad `limit` or cursor is a validation error. */
export async function readNewestFirstPage<T extends ListPosition>(
  query: PageQuery,
  source: PageSource<T>,
): Promise<Page<T>> {
  const limit = query.limit === undefined || query.limit === 0 ? DEFAULT_PAGE_SIZE : query.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw GatewayError.validation([
      {
        field: "limit",
        code: "invalid",
        message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`,
      },
    ]);
  }
  let after: ListPosition | undefined;
  if (query.startingAfter !== undefined && query.startingAfter !== "") {
    const cursor = await source.findCursor(query.startingAfter);
    if (!cursor) {
      throw GatewayError.validation([
        {
          field: "starting_after",
          code: "invalid",
          message: `starting_after must be the id of ${source.noun} of this account.`,
        },
      ]);
    }
    after = { createdAt: cursor.createdAt, id: cursor.id };
  }
  const page = await source.read(after ? { limit, after } : { limit });
  const last = page.items.at(-1);
  return {
    items: page.items,
    hasMore: page.hasMore,
    ...(page.hasMore && last ? { nextCursor: last.id } : {}),
  };
}

/** Newest-first order by (createdAt, id), for in-memory lists. */
export function newestFirst(a: ListPosition, b: ListPosition): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Whether `item` comes strictly after `position` in newest-first order, for in-memory lists. */
export function isAfterPosition(item: ListPosition, position: ListPosition): boolean {
  return newestFirst(position, item) < 0;
}

/** The MongoDB filter of "strictly after `position`" in newest-first order (sort {createdAt: -1, id: -1}). */
export function afterPositionFilter(position: ListPosition): { $or: object[] } {
  return {
    $or: [
      { createdAt: { $lt: position.createdAt } },
      { createdAt: position.createdAt, id: { $lt: position.id } },
    ],
  };
}

/** The sort that goes with afterPositionFilter. */
export const NEWEST_FIRST_SORT = { createdAt: -1, id: -1 } as const;

/** Bounds on creation time that every list filter accepts (`created[gte]`, `created[lte]`). */
export interface CreatedRange {
  createdGte?: Date;
  createdLte?: Date;
}

/**
 * The MongoDB filter of one page's window: the creation-time bounds and "strictly after the
 * cursor", to be combined with the list's own equality filter and sorted by NEWEST_FIRST_SORT
 * with a limit of `window.limit + 1` (the extra document tells whether there is more).
 */
export function newestFirstWindowFilter(range: CreatedRange, window: PageWindow): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (range.createdGte !== undefined || range.createdLte !== undefined) {
    filter.createdAt = {
      ...(range.createdGte !== undefined ? { $gte: range.createdGte } : {}),
      ...(range.createdLte !== undefined ? { $lte: range.createdLte } : {}),
    };
  }
  return window.after === undefined ? filter : { ...filter, ...afterPositionFilter(window.after) };
}

/** Splits the `limit + 1` documents a window query read into the page and whether there is more. */
export function pageOfWindow<T>(docs: T[], window: PageWindow): { items: T[]; hasMore: boolean } {
  return { items: docs.slice(0, window.limit), hasMore: docs.length > window.limit };
}
