import { describe, expect, it } from "vitest";
import { DueIndex } from "../src/adapters/memory/due-index.js";

const T = Date.UTC(2026, 10, 26, 12, 0, 0);

describe("DueIndex", () => {
  it("when ids fall due at several moments, then a window finds exactly those with a moment inside it, both ends included", () => {
    const index = new DueIndex();
    index.set("a", [T + 100]);
    index.set("b", [T + 5_000, T - 60_000]);
    index.set("c", [T + 999]);
    index.set("d", [T + 1_000]);
    expect([...index.dueBetween(T + 100, T + 999)].sort()).toEqual(["a", "c"]);
    expect([...index.dueBetween(T + 101, T + 998)]).toEqual([]);
    expect([...index.dueBetween(T, T + 1_000)].sort()).toEqual(["a", "c", "d"]);
    expect([...index.dueBetween(-Infinity, T)]).toEqual(["b"]);
    expect([...index.dueBetween(-Infinity, T + 10_000)].sort()).toEqual(["a", "b", "c", "d"]);
  });

  it("when an id's moments are set again, then only the new ones count, and none forgets it", () => {
    const index = new DueIndex();
    index.set("a", [T, T + 3_000]);
    index.set("a", [T + 10_000]);
    expect([...index.dueBetween(-Infinity, T + 5_000)]).toEqual([]);
    expect([...index.dueBetween(T + 10_000, T + 10_000)]).toEqual(["a"]);
    index.set("a", []);
    expect(index.size).toBe(0);
    expect([...index.dueBetween(-Infinity, Infinity)]).toEqual([]);
  });

  it("when an id has one moment or several, then its first time is the earliest, and none without moments", () => {
    const index = new DueIndex();
    index.set("one", [T + 7_000]);
    index.set("several", [T + 9_000, T - 2_000, T + 1]);
    expect(index.firstTime("one")).toBe(T + 7_000);
    expect(index.firstTime("several")).toBe(T - 2_000);
    expect(index.firstTime("none")).toBeUndefined();
    index.delete("one");
    expect(index.firstTime("one")).toBeUndefined();
    expect([...index.dueBetween(-Infinity, Infinity)]).toEqual(["several"]);
  });

  it("when ids are deleted, then their emptied buckets go and the others stay in time order", () => {
    const index = new DueIndex();
    for (let i = 0; i < 200; i++) index.set(`s${i}`, [T + ((i * 7_919) % 200) * 1_000]);
    for (let i = 0; i < 200; i += 2) index.delete(`s${i}`);
    index.delete("never-set");
    expect(index.size).toBe(100);
    const found = [...index.dueBetween(T + 50_000, T + 149_000)];
    const expected = Array.from({ length: 100 }, (_, k) => 2 * k + 1)
      .filter((i) => {
        const at = ((i * 7_919) % 200) * 1_000;
        return at >= 50_000 && at <= 149_000;
      })
      .map((i) => `s${i}`);
    expect(found.sort()).toEqual(expected.sort());
  });
});
