import { D } from "@gateway/money";

// One token of JSON text: a string, a number, a literal, or punctuation (white space skipped).
const TOKEN =
  /[ \t\n\r]*(?:("(?:[^"\\]|\\.)*")|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)|(true|false|null)|([{}[\],:]))/y;

type Container =
  | { kind: "object"; members: Map<string, string>; key?: string }
  | { kind: "array"; items: string[] };

/**
 * The meaning of a JSON text as one canonical text: object members sorted by name (a repeated
 * name keeps its last value, as JSON.parse does), no white space, strings with minimal escapes,
 * numbers by exact decimal value (`1.50`, `1.5` and `15e-1` are the same; no float rounding, so
 * two long numbers that differ stay different). Iterative, so deep nesting cannot overflow the
 * stack. `text` must be JSON (the caller has parsed it); anything else throws.
 */
export function canonicalJson(text: string): string {
  const stack: Container[] = [];
  let result: string | undefined;
  let pos = 0;
  const place = (value: string): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) result = value;
    else if (top.kind === "array") top.items.push(value);
    else if (top.key === undefined)
      throw new Error("canonicalJson: a value where a member name was expected");
    else {
      top.members.set(top.key, value);
      top.key = undefined;
    }
  };
  while (pos < text.length) {
    TOKEN.lastIndex = pos;
    const match = TOKEN.exec(text);
    if (!match) {
      if (text.slice(pos).trim() === "") break;
      throw new Error(`canonicalJson: not JSON at position ${pos}`);
    }
    pos = TOKEN.lastIndex;
    const [, str, num, literal, punct] = match;
    const top = stack[stack.length - 1];
    if (str !== undefined) {
      const value = JSON.stringify(JSON.parse(str) as string);
      if (top?.kind === "object" && top.key === undefined) top.key = JSON.parse(str) as string;
      else place(value);
    } else if (num !== undefined) place(new D(num).toString());
    else if (literal !== undefined) place(literal);
    else if (punct === "{") stack.push({ kind: "object", members: new Map() });
    else if (punct === "[") stack.push({ kind: "array", items: [] });
    else if (punct === "}" || punct === "]") {
      const closed = stack.pop();
      if (closed === undefined) throw new Error("canonicalJson: unbalanced text");
      place(
        closed.kind === "array"
          ? `[${closed.items.join(",")}]`
          : `{${[...closed.members.keys()]
              .sort()
              .map((name) => `${JSON.stringify(name)}:${closed.members.get(name)!}`)
              .join(",")}}`,
      );
    }
    // "," and ":" carry no meaning once the structure is known.
  }
  if (result === undefined || stack.length > 0) throw new Error("canonicalJson: incomplete text");
  return result;
}
