import { describe, expect, it } from "vitest";
import { extractTopLevelRawValues, JsonScanError } from "../src/json/raw-json-fields.js";

describe("extractTopLevelRawValues", () => {
  it("when members hold every kind of value, then each value's exact source text is returned", () => {
    const text = '{"s":"x","n":1.50,"e":-1e+2,"t":true,"f":false,"z":null,"o":{"a":[1,{"b":2}]},"a":[[1,2],[]]}';
    expect(Object.fromEntries(extractTopLevelRawValues(text))).toEqual({
      s: '"x"',
      n: "1.50",
      e: "-1e+2",
      t: "true",
      f: "false",
      z: "null",
      o: '{"a":[1,{"b":2}]}',
      a: "[[1,2],[]]",
    });
  });

  it("when whitespace surrounds tokens, then values exclude the outer whitespace but keep the inner", () => {
    const text = ' \n{ "m" :\t{ "a" : [ 1 , 2 ] }\r\n , "k":"v" } \n';
    const values = extractTopLevelRawValues(text);
    expect(values.get("m")).toBe('{ "a" : [ 1 , 2 ] }');
    expect(values.get("k")).toBe('"v"');
  });

  it("when strings contain braces, brackets, quotes and backslashes, then they do not end the value early", () => {
    const text = String.raw`{"m":{"x":"}]\"{[","y\"}":"\\","z":"\u0041\n\/"},"after":1}`;
    const values = extractTopLevelRawValues(text);
    expect(values.get("m")).toBe(String.raw`{"x":"}]\"{[","y\"}":"\\","z":"\u0041\n\/"}`);
    expect(values.get("after")).toBe("1");
  });

  it("when a member name uses escapes, then the decoded name is the key", () => {
    const values = extractTopLevelRawValues(String.raw`{"\u0061\"b":1,"$k.x":2}`);
    expect([...values.keys()]).toEqual(['a"b', "$k.x"]);
  });

  it("when a member repeats, then the last value wins, as with JSON.parse", () => {
    const text = '{"m":{"a":1},"m":{"b":2}}';
    expect(extractTopLevelRawValues(text).get("m")).toBe('{"b":2}');
    expect(JSON.parse(text)).toEqual({ m: { b: 2 } });
  });

  it("when the object is empty, then no members are returned", () => {
    expect(extractTopLevelRawValues(" {} ").size).toBe(0);
  });

  it("when nesting is very deep, then the scanner neither recurses nor overflows", () => {
    const depth = 100_000;
    const text = `{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    expect(extractTopLevelRawValues(text).get("deep")?.length).toBe(depth * 2);
  });

  it.each([
    ["not an object", "[1]"],
    ["trailing comma", '{"a":1,}'],
    ["missing colon", '{"a" 1}'],
    ["single quotes", "{'a':1}"],
    ["leading zero", '{"a":01}'],
    ["bare fraction", '{"a":.5}'],
    ["unterminated string", '{"a":"x}'],
    ["raw newline in string", '{"a":"x\ny"}'],
    ["bad escape", String.raw`{"a":"\x"}`],
    ["short unicode escape", String.raw`{"a":"\u12"}`],
    ["text after the object", '{"a":1} x'],
    ["misspelled literal", '{"a":tru}'],
    ["literal with extra letters", '{"a":truex}'],
    ["mismatched brackets", '{"a":[1}'],
    ["array trailing comma", '{"a":[1,]}'],
    ["nested trailing comma", '{"a":{"b":1,}}'],
    ["empty text", ""],
  ])("when the text has a %s, then it is refused", (_name, text) => {
    expect(() => extractTopLevelRawValues(text)).toThrow(JsonScanError);
  });

  it("agrees with JSON.parse on what each member parses to", () => {
    const text = '{"metadata":{"b":1,"a":"x.y","$k":[[1,2]],"n":1.50,"2":true},"amount":"10.000","items":[{"name":"A"}]}';
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const [name, raw] of extractTopLevelRawValues(text)) expect(JSON.parse(raw)).toEqual(parsed[name]);
  });
});
