import { describe, expect, it } from "vitest";
import { RawJson, stringifyWithRaw } from "../src/json/raw-json-stringify.js";

describe("stringifyWithRaw", () => {
  it("when a value is RawJson, then its text is spliced in verbatim", () => {
    const out = stringifyWithRaw({ id: "ps_1", metadata: new RawJson('{"n":1.50,"2":true}'), list: [new RawJson("1e2"), null] });
    expect(out).toBe('{"id":"ps_1","metadata":{"n":1.50,"2":true},"list":[1e2,null]}');
  });

  it("when there is no RawJson, then the output equals JSON.stringify", () => {
    const value = { a: "q\"uote\u2028", b: [1, 2.5, true, null, { c: "é" }], d: undefined, e: -0 };
    expect(stringifyWithRaw(value)).toBe(JSON.stringify(value));
  });

  it("when a number is not finite, then it throws instead of writing invalid JSON", () => {
    expect(() => stringifyWithRaw({ a: Number.NaN })).toThrow(TypeError);
  });
});
