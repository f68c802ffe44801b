/**
 * A small, strict JSON scanner that returns the exact source text of each top-level member of
 * a JSON object. JSON.parse loses what merchants expect back byte for byte in `metadata`
 * (key order of duplicate-free objects is kept, but number spelling such as `1.50` and
 * `1e2` is not), so the edge forwards the member's source text instead of re-serialising it.
 *
 * The scanner is iterative (an explicit stack), so deeply nested input cannot overflow the
 * call stack, and it validates the grammar of RFC 8259 as it goes.
 */
export class JsonScanError extends Error {
  override readonly name = "JsonScanError";

  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/**
 * Maps each top-level member name (decoded, e.g. `"\u0061"` gives `a`) to the exact source
 * text of its value, without surrounding whitespace. A repeated name keeps the last value,
 * as JSON.parse does. Throws JsonScanError when `text` is not a single JSON object.
 */
export function extractTopLevelRawValues(text: string): Map<string, string> {
  const members = new Map<string, string>();
  let pos = skipWhitespace(text, 0);
  if (text[pos] !== "{") throw new JsonScanError("Expected '{'", pos);
  pos = skipWhitespace(text, pos + 1);
  if (text[pos] === "}") {
    pos += 1;
  } else {
    for (;;) {
      const keyStart = pos;
      pos = scanString(text, pos);
      const name = JSON.parse(text.slice(keyStart, pos)) as string;
      pos = expectChar(text, skipWhitespace(text, pos), ":");
      const valueStart = skipWhitespace(text, pos);
      pos = scanValue(text, valueStart);
      members.set(name, text.slice(valueStart, pos));
      pos = skipWhitespace(text, pos);
      if (text[pos] === ",") {
        pos = skipWhitespace(text, pos + 1);
        continue;
      }
      pos = expectChar(text, pos, "}");
      break;
    }
  }
  pos = skipWhitespace(text, pos);
  if (pos !== text.length) throw new JsonScanError("Unexpected text after the object", pos);
  return members;
}

/** Returns the index just past the JSON value that starts at `start`. */
export function scanValue(text: string, start: number): number {
  const open: Array<"}" | "]"> = [];
  let pos = start;
  for (;;) {
    // Here a value is expected.
    const ch = text[pos];
    if (ch === "{" || ch === "[") {
      const close = ch === "{" ? "}" : "]";
      pos = skipWhitespace(text, pos + 1);
      if (text[pos] === close) {
        pos += 1;
      } else {
        open.push(close);
        if (close === "}") pos = scanMemberName(text, pos);
        continue;
      }
    } else if (ch === '"') {
      pos = scanString(text, pos);
    } else if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) {
      NUMBER.lastIndex = pos;
      if (!NUMBER.test(text)) throw new JsonScanError("Invalid number", pos);
      pos = NUMBER.lastIndex;
    } else if (text.startsWith("true", pos)) {
      pos += 4;
    } else if (text.startsWith("false", pos)) {
      pos += 5;
    } else if (text.startsWith("null", pos)) {
      pos += 4;
    } else {
      throw new JsonScanError("Expected a JSON value", pos);
    }
    // A value ended: close containers or move on to the next element.
    for (;;) {
      const close = open[open.length - 1];
      if (close === undefined) return pos;
      pos = skipWhitespace(text, pos);
      if (text[pos] === ",") {
        pos = skipWhitespace(text, pos + 1);
        if (close === "}") pos = scanMemberName(text, pos);
        break;
      }
      pos = expectChar(text, pos, close);
      open.pop();
    }
  }
}

/** Scans `"name" :` and returns the position of the member's value. */
function scanMemberName(text: string, pos: number): number {
  const afterName = scanString(text, pos);
  const afterColon = expectChar(text, skipWhitespace(text, afterName), ":");
  return skipWhitespace(text, afterColon);
}

/** Returns the index just past the closing quote of the string starting at `start`. */
function scanString(text: string, start: number): number {
  if (text[start] !== '"') throw new JsonScanError("Expected a string", start);
  let pos = start + 1;
  for (;;) {
    const code = text.charCodeAt(pos);
    if (Number.isNaN(code)) throw new JsonScanError("Unterminated string", start);
    if (code === 0x22) return pos + 1;
    if (code < 0x20) throw new JsonScanError("Control character in string", pos);
    if (code === 0x5c) {
      const escaped = text[pos + 1];
      if (escaped === "u") {
        HEX4.lastIndex = pos + 2;
        if (!HEX4.test(text)) throw new JsonScanError("Invalid \\u escape", pos);
        pos += 6;
        continue;
      }
      if (escaped === undefined || !SIMPLE_ESCAPES.has(escaped)) throw new JsonScanError("Invalid escape", pos);
      pos += 2;
      continue;
    }
    pos += 1;
  }
}

function skipWhitespace(text: string, pos: number): number {
  let at = pos;
  for (;;) {
    const ch = text[at];
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") at += 1;
    else return at;
  }
}

function expectChar(text: string, pos: number, expected: string): number {
  if (text[pos] !== expected) throw new JsonScanError(`Expected '${expected}'`, pos);
  return pos + 1;
}
