import { describe, expect, it } from "vitest";
import { derivedId, newId, pooledRandomBytes, randomBase62 } from "../src/ids.js";

describe("derivedId", () => {
  it("when given the same seed, then it gives the same id, shaped like newId", () => {
    const id = derivedId("evt", "session.expired|ps_1");
    expect(id).toBe(derivedId("evt", "session.expired|ps_1"));
    expect(id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    expect(id.length).toBe(newId("evt").length);
  });

  it("when the seeds differ, then the ids differ", () => {
    const ids = new Set(Array.from({ length: 1000 }, (_, i) => derivedId("evt", `seed ${i}`)));
    expect(ids.size).toBe(1000);
  });
});

describe("randomBase62", () => {
  it("when many are drawn, across many refills of the random pool, then none repeats and every character is used about equally", () => {
    const texts = Array.from({ length: 20_000 }, () => randomBase62(22));
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) expect(text).toMatch(/^[0-9A-Za-z]{22}$/);
    const counts = new Map<string, number>();
    for (const text of texts) for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 440,000 characters: about 7,097 each; a biased or repeating source lands far outside.
    for (const count of counts.values()) expect(Math.abs(count - 440_000 / 62)).toBeLessThan(500);
  });

  it("when lengths vary, then each text has exactly the length asked", () => {
    for (const length of [1, 7, 24, 64, 300]) expect(randomBase62(length)).toHaveLength(length);
  });
});

describe("pooledRandomBytes", () => {
  it("when many small draws are made, across many refills of the pool, then no draw repeats and every byte value is used about equally", () => {
    const draws = Array.from({ length: 20_000 }, () => pooledRandomBytes(6));
    expect(draws.every((d) => d.length === 6)).toBe(true);
    expect(new Set(draws.map((d) => Buffer.from(d).toString("hex"))).size).toBe(draws.length);
    const counts = new Array<number>(256).fill(0);
    for (const d of draws) for (const b of d) counts[b]!++;
    const expected = (draws.length * 6) / 256;
    expect(Math.min(...counts)).toBeGreaterThan(expected * 0.7);
    expect(Math.max(...counts)).toBeLessThan(expected * 1.3);
  });
});
