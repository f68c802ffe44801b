import { describe, expect, it } from "vitest";
import {
  GatewayError,
  isAfterPosition,
  type ListPosition,
  MAX_PAGE_SIZE,
  newestFirst,
  type PageWindow,
  readNewestFirstPage,
} from "../src/index.js";

interface Row extends ListPosition {
  scope: string;
}

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
// Two rows share a timestamp so that the id decides their order.
const rows: Row[] = [
  { id: "a1", createdAt: at(1), scope: "A" },
  { id: "a2", createdAt: at(2), scope: "A" },
  { id: "a3", createdAt: at(2), scope: "A" },
  { id: "a4", createdAt: at(4), scope: "A" },
  { id: "b1", createdAt: at(3), scope: "B" },
];

function sourceFor(scope: string) {
  const mine = rows.filter((r) => r.scope === scope);
  return {
    noun: "a row",
    findCursor: async (id: string) => mine.find((r) => r.id === id),
    read: async (window: PageWindow) => {
      const after = window.after;
      const matching = mine.filter((r) => after === undefined || isAfterPosition(r, after)).sort(newestFirst);
      return { items: matching.slice(0, window.limit), hasMore: matching.length > window.limit };
    },
  };
}

async function validationFieldOf(promise: Promise<unknown>): Promise<string | undefined> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return (err as GatewayError).violations[0]?.field;
}

describe("readNewestFirstPage", () => {
  it("when pages are followed by their cursor, then every item comes once, newest first, ties by id", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await readNewestFirstPage(
        { limit: 1, ...(cursor ? { startingAfter: cursor } : {}) },
        sourceFor("A"),
      );
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      expect(page.hasMore).toBe(cursor !== undefined);
    } while (cursor);
    expect(seen).toEqual(["a4", "a3", "a2", "a1"]);
  });

  it("when no limit is given, then the default page size applies and the last page has no cursor", async () => {
    const page = await readNewestFirstPage({}, sourceFor("A"));
    expect(page.items).toHaveLength(4);
    expect(page).not.toHaveProperty("nextCursor");
  });

  it.each([-1, 1.5, MAX_PAGE_SIZE + 1])(
    "when the limit is %s, then it is a validation error on limit",
    async (limit) => {
      expect(await validationFieldOf(readNewestFirstPage({ limit }, sourceFor("A")))).toBe("limit");
    },
  );

  it("when the cursor belongs to another scope, then it is a validation error on starting_after", async () => {
    expect(await validationFieldOf(readNewestFirstPage({ startingAfter: "b1" }, sourceFor("A")))).toBe(
      "starting_after",
    );
  });
});
