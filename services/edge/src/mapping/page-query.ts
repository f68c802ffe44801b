import type { PageRequest } from "@gateway/proto";

/** Largest `limit` of every list endpoint (1–100, default 20: docs/api/limits.md#paging). */
export const MAX_LIST_LIMIT = 100;

/**
 * Applies the cursor-pagination query parameters every list shares. Returns why the value is
 * refused, undefined when it was applied, or null when `name` is not a paging parameter.
 */
export function applyPageParam(page: PageRequest, name: string, raw: string): string | undefined | null {
  switch (name) {
    case "limit": {
      const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!(limit >= 1 && limit <= MAX_LIST_LIMIT)) return `Must be an integer from 1 to ${MAX_LIST_LIMIT}.`;
      page.limit = limit;
      return undefined;
    }
    case "starting_after":
      if (raw === "") return "Must be the next_cursor of a previous page.";
      page.startingAfter = raw;
      return undefined;
    default:
      return null;
  }
}
