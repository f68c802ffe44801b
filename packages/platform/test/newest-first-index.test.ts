import { describe, expect, it } from "vitest";
import { NewestFirstIndex } from "../src/paging/newest-first-index.js";
import { isAfterPosition, type ListPosition, newestFirst } from "../src/paging/newest-first-page.js";

const T = Date.UTC(2026, 10, 26);
const MER_1 = { merchantId: "mer_1", livemode: false };
const MER_2 = { merchantId: "mer_2", livemode: false };
/** The same merchant in live mode: another list. */
const MER_3 = { merchantId: "mer_1", livemode: true };
const MER_9 = { merchantId: "mer_9", livemode: false };

/** Positions in a shuffled order, with ties on createdAt that only the id breaks. */
function shuffledPositions(count: number): ListPosition[] {
  const positions = Array.from({ length: count }, (_, i) => ({
    createdAt: new Date(T + Math.floor(i / 3) * 1_000),
    id: `ps_${String((i * 7_919) % 1_000).padStart(4, "0")}`,
  }));
  for (let i = positions.length - 1; i > 0; i--) {
    const j = (i * 104_729) % (i + 1);
    [positions[i], positions[j]] = [positions[j]!, positions[i]!];
  }
  return positions;
}

/** Every id of the account in `scope` that a page walk reaches, newest first, after `after` when given. */
function idsNewestFirst(index: NewestFirstIndex, scope: typeof MER_1, after?: ListPosition): string[] {
  return index.page(
    scope,
    { limit: Number.MAX_SAFE_INTEGER, ...(after ? { after } : {}) },
    {
      load: (id) => id,
      matches: () => true,
    },
  ).items;
}

describe("NewestFirstIndex", () => {
  it("when positions arrive in any order, then an account's ids come newest first, as sorting them would give", () => {
    const index = new NewestFirstIndex();
    const positions = shuffledPositions(300);
    for (const p of positions) index.add(MER_1, p);
    index.add(MER_2, { createdAt: new Date(T), id: "ps_other" });
    expect(idsNewestFirst(index, MER_1)).toEqual([...positions].sort(newestFirst).map((p) => p.id));
    expect(idsNewestFirst(index, MER_2)).toEqual(["ps_other"]);
    expect(idsNewestFirst(index, MER_3)).toEqual([]);
  });

  it("when a page starts after a position, held or not, then only what lies strictly after it follows", () => {
    const index = new NewestFirstIndex();
    const positions = shuffledPositions(90);
    for (const p of positions) index.add(MER_1, p);
    const sorted = [...positions].sort(newestFirst);
    for (const after of [
      sorted[0]!,
      sorted[41]!,
      sorted[89]!,
      { createdAt: new Date(T + 7_500), id: "ps_x" },
    ]) {
      const expected = sorted.filter((p) => isAfterPosition(p, after)).map((p) => p.id);
      expect(idsNewestFirst(index, MER_1, after)).toEqual(expected);
    }
  });

  it("when positions are deleted, then they leave the order and the rest stays, and deleting an unknown one changes nothing", () => {
    const index = new NewestFirstIndex();
    const positions = shuffledPositions(60);
    for (const p of positions) index.add(MER_1, p);
    for (const p of positions.slice(0, 30)) index.delete(MER_1, p);
    index.delete(MER_1, { createdAt: new Date(T), id: "ps_unknown" });
    index.delete(MER_9, positions[40]!);
    expect(idsNewestFirst(index, MER_1)).toEqual(
      positions
        .slice(30)
        .sort(newestFirst)
        .map((p) => p.id),
    );
    for (const p of positions.slice(30)) index.delete(MER_1, p);
    expect(idsNewestFirst(index, MER_1)).toEqual([]);
  });

  it("when a page is read, then it holds the newest matching records after the cursor, says whether more match, and stops at created_gte", () => {
    const index = new NewestFirstIndex();
    const positions = shuffledPositions(90);
    for (const p of positions) index.add(MER_1, p);
    const sorted = [...positions].sort(newestFirst);
    const even = (p: ListPosition) => Number(p.id.slice(3)) % 2 === 0;
    const byId = new Map(positions.map((p) => [p.id, p]));
    const loaded: string[] = [];
    const load = (id: string) => {
      loaded.push(id);
      return byId.get(id)!;
    };
    const first = index.page(MER_1, { limit: 5 }, { load, matches: even });
    expect(first.items).toEqual(sorted.filter(even).slice(0, 5));
    expect(first.hasMore).toBe(true);
    const next = index.page(MER_1, { limit: 100, after: first.items[4]! }, { load, matches: even });
    expect(next.items).toEqual(sorted.filter(even).slice(5));
    expect(next.hasMore).toBe(false);
    loaded.length = 0;
    const gte = new Date(T + 25_000);
    const recent = index.page(MER_1, { limit: 100 }, { load, matches: () => true, createdGte: gte });
    expect(recent.items).toEqual(sorted.filter((p) => p.createdAt.getTime() >= gte.getTime()));
    // The walk stops on the index's own times: nothing older than created_gte is loaded.
    expect(loaded).toHaveLength(recent.items.length);
  });
});
