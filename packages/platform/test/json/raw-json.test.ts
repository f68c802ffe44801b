import { describe, expect, it } from "vitest";
import { RawJson, stringifyWithRaw, topLevelMemberTexts } from "../../src/json/raw-json.js";

describe("stringifyWithRaw", () => {
  it("when a value is RawJson, then its text is spliced in verbatim", () => {
    const out = stringifyWithRaw({
      id: "ps_1",
      metadata: new RawJson('{"n":1.50,"2":true}'),
      list: [new RawJson("1e2"), null],
    });
    expect(out).toBe('{"id":"ps_1","metadata":{"n":1.50,"2":true},"list":[1e2,null]}');
  });

  it("when there is no RawJson, then the output equals JSON.stringify", () => {
    const value = { a: 'q"uote\u2028', b: [1, 2.5, true, null, { c: "é" }], d: undefined, e: -0 };
    expect(stringifyWithRaw(value)).toBe(JSON.stringify(value));
  });

  it("when documents use more member names than are kept quoted, or names that need escapes, then every name is written as JSON.stringify writes it", () => {
    const names = Array.from({ length: 1_200 }, (_, i) => (i % 3 === 0 ? `n"${i}\u2028é` : `name_${i}`));
    for (const name of names) {
      const value = { [name]: 1, 7: "integer-like names come first", after: name };
      expect(stringifyWithRaw(value)).toBe(JSON.stringify(value));
    }
  });

  it("when a number is not finite, then it is written null, as JSON.stringify writes it", () => {
    expect(stringifyWithRaw({ a: Number.NaN, b: [Number.POSITIVE_INFINITY], c: new RawJson("1") })).toBe(
      '{"a":null,"b":[null],"c":1}',
    );
  });

  it("when RawJson values sit at every depth, then each text lands in its own place, in order", () => {
    const value = {
      first: new RawJson('{"a":"x"}'),
      nested: { list: [new RawJson("[1, 2]"), { deep: new RawJson('"s"') }, new RawJson("0.10")] },
      empty: [],
      last: new RawJson("true"),
    };
    expect(stringifyWithRaw(value)).toBe(
      '{"first":{"a":"x"},"nested":{"list":[[1, 2],{"deep":"s"},0.10]},"empty":[],"last":true}',
    );
  });

  it("when a document holds the stand-in a RawJson writes, as a value or a name, then the document is still written exactly", () => {
    // The stand-in is what a RawJson gives JSON.stringify inside stringifyWithRaw: read it there.
    let standIn = "";
    const reader = {
      toJSON: () => {
        standIn = String(new RawJson("0").toJSON());
        return null;
      },
    };
    stringifyWithRaw([reader] as never);
    expect(standIn).toMatch(/^raw-json:[0-9A-Za-z]{22}$/);
    const forged = { a: standIn, [standIn]: new RawJson('{"n":1.50}'), list: [new RawJson("2.0"), standIn] };
    expect(stringifyWithRaw(forged)).toBe(
      `{"a":"${standIn}","${standIn}":{"n":1.50},"list":[2.0,"${standIn}"]}`,
    );
  });

  it("when a RawJson is written by JSON.stringify elsewhere (a log line), then it writes what its text means", () => {
    expect(JSON.stringify({ m: new RawJson('{"n":1.50}') })).toBe('{"m":{"n":1.5}}');
  });

  it("when JSON.stringify throws midway, then the next document is written as usual", () => {
    expect(() => stringifyWithRaw({ a: new RawJson("1"), b: 1n } as never)).toThrow(TypeError);
    expect(stringifyWithRaw({ c: new RawJson("[3]") })).toBe('{"c":[3]}');
  });
});

describe("topLevelMemberTexts", () => {
  it("when members hold every kind of value, then each value's exact source text is returned", () => {
    const text =
      '{"s":"x","n":1.50,"e":-1e+2,"t":true,"f":false,"z":null,"o":{"a":[1,{"b":2}]},"a":[[1,2],[]]}';
    expect(Object.fromEntries(topLevelMemberTexts(text))).toEqual({
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
    const values = topLevelMemberTexts(' \n{ "m" :\t{ "a" : [ 1 , 2 ] }\r\n , "k":"v" } \n');
    expect(values.get("m")).toBe('{ "a" : [ 1 , 2 ] }');
    expect(values.get("k")).toBe('"v"');
  });

  it("when strings contain braces, brackets, quotes, commas, colons and backslashes, then they do not end the value early", () => {
    const text = String.raw`{"m":{"x":"}],:\"{[","y\"}":"\\","z":"\u0041\n\/"},"after":1}`;
    const values = topLevelMemberTexts(text);
    expect(values.get("m")).toBe(String.raw`{"x":"}],:\"{[","y\"}":"\\","z":"\u0041\n\/"}`);
    expect(values.get("after")).toBe("1");
  });

  it("when a member name uses escapes, then the decoded name is the key", () => {
    expect([...topLevelMemberTexts(String.raw`{"\u0061\"b":1,"$k.x":2}`).keys()]).toEqual(['a"b', "$k.x"]);
  });

  it("when a member repeats, then the last value wins, as with JSON.parse", () => {
    expect(topLevelMemberTexts('{"m":{"a":1},"m":{"b":2}}').get("m")).toBe('{"b":2}');
  });

  it("when the object is empty, then no members are returned", () => {
    expect(topLevelMemberTexts(" {} ").size).toBe(0);
  });

  it("when nesting is very deep, then it neither recurses nor overflows", () => {
    const depth = 100_000;
    expect(topLevelMemberTexts(`{"deep":${"[".repeat(depth)}${"]".repeat(depth)}}`).get("deep")?.length).toBe(
      depth * 2,
    );
  });

  it("agrees with JSON.parse on what each member parses to", () => {
    const text =
      '{"metadata":{"b":1,"a":"x.y","$k":[[1,2]],"n":1.50,"2":true},"amount":"10.000","items":[{"name":"A"}],"s":"a,b:c"}';
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const members = topLevelMemberTexts(text);
    expect([...members.keys()]).toEqual(Object.keys(parsed));
    for (const [name, raw] of members) expect(JSON.parse(raw)).toEqual(parsed[name]);
  });
});
