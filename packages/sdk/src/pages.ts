/** One page of a list: its items, whether more follow, and the cursor of the next page. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Every item of a list, page after page: each page is asked for with `starting_after` set to the
 * previous page's `next_cursor` (keyset paging, docs/api/limits.md#paging), so items created while
 * walking neither shift the pages nor appear twice. Stops at the page whose `has_more` is false.
 */
export async function* eachItem<T, Q extends { starting_after?: string }>(
  query: Q,
  fetchPage: (query: Q) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor = query.starting_after;
  for (;;) {
    const page = await fetchPage(cursor === undefined ? query : { ...query, starting_after: cursor });
    yield* page.data;
    if (!page.has_more || page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}
