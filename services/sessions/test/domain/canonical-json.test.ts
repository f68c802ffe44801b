import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/domain/canonical-json.js";

describe("canonicalJson (what an idempotent retry's metadata is compared by)", () => {
  it("ignores key order, white space, escapes and number spelling", () => {
    const a = canonicalJson('{"a":1.50,"b":{"y":[1,"\\u0061"],"x":null},"c":1e2}');
    const b = canonicalJson('{ "c" : 100 , "b" : { "x" : null , "y" : [ 1.0 , "a" ] } , "a" : 15e-1 }');
    expect(a).toBe(b);
    expect(a).toBe('{"a":1.5,"b":{"x":null,"y":[1,"a"]},"c":100}');
  });

  it("keeps what means something: values, array order, long numbers exactly", () => {
    expect(canonicalJson('{"a":[1,2]}')).not.toBe(canonicalJson('{"a":[2,1]}'));
    expect(canonicalJson('{"n":12345678901234567890}')).not.toBe(canonicalJson('{"n":12345678901234567891}'));
    expect(canonicalJson('{"s":"1"}')).not.toBe(canonicalJson('{"s":1}'));
  });

  it("keeps the last of a repeated name, as JSON.parse does", () => {
    expect(canonicalJson('{"a":1,"a":2}')).toBe('{"a":2}');
  });

  it("handles deep nesting without recursion", () => {
    expect(canonicalJson(`{"d":${"[".repeat(50_000)}${"]".repeat(50_000)}}`)).toHaveLength(100_006);
  });
});
