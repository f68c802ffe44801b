import { randomBase62 } from "../ids.js";

/**
 * What a RawJson stands in as while JSON.stringify writes the document around it: random per
 * process, so no text a merchant sends can be it except by a 131-bit guess, and even then
 * stringifyWithRaw notices (it finds more stand-ins than RawJson values) and writes that
 * document the slow, exact way.
 */
const STAND_IN = `raw-json:${randomBase62(22)}`;
const QUOTED_STAND_IN = JSON.stringify(STAND_IN);

/**
 * The texts of the RawJson values met by stringifyWithRaw's JSON.stringify, in the order it met
 * them; undefined when no stringifyWithRaw is under way.
 */
let metTexts: string[] | undefined;

/**
 * JSON text that is inserted verbatim when serialising (the merchant's metadata, kept exactly
 * as it was sent). Only build it from text that is known to be valid JSON.
 */
export class RawJson {
  constructor(readonly text: string) {}

  /**
   * Called by JSON.stringify. Inside stringifyWithRaw: records the text, to be spliced in where
   * the stand-in lands. Anywhere else (a log line, a test): the value the text means.
   */
  toJSON(): unknown {
    if (metTexts === undefined) return JSON.parse(this.text);
    metTexts.push(this.text);
    return STAND_IN;
  }
}

export type JsonOutput =
  | null
  | boolean
  | number
  | string
  | RawJson
  | JsonOutput[]
  | { [key: string]: JsonOutput | undefined };

/**
 * JSON.stringify for documents that may hold RawJson values: the same text, with each RawJson's
 * own text in its place. Members whose value is `undefined` are left out and non-finite numbers
 * are written `null`, as JSON.stringify does. Every response body and webhook passes here, so
 * the document is written by JSON.stringify itself, twice as fast as any walk of ours
 * (docs/decisions.md#json-bodies-are-written-by-jsonstringify); a RawJson writes a stand-in
 * that is then replaced.
 */
export function stringifyWithRaw(value: JsonOutput): string {
  const texts: string[] = [];
  metTexts = texts;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    metTexts = undefined;
  }
  if (texts.length === 0) return text;
  const pieces = text.split(QUOTED_STAND_IN);
  if (pieces.length !== texts.length + 1) return writeExactly(value);
  let spliced = pieces[0]!;
  for (let i = 0; i < texts.length; i++) spliced += texts[i]! + pieces[i + 1]!;
  return spliced;
}

/** stringifyWithRaw by walking the document, for one that holds the stand-in as text of its own. */
function writeExactly(value: JsonOutput): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => writeExactly(item ?? null)).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const members: string[] = [];
  for (const [name, member] of Object.entries(value))
    if (member !== undefined) members.push(`${JSON.stringify(name)}:${writeExactly(member)}`);
  return `{${members.join(",")}}`;
}

// In JSON text, a string token; everything else that matters is one character.
const STRING_OR_STRUCTURE = /"(?:[^"\\]|\\.)*"|[{}[\],:]/g;

/**
 * The exact source text of each top-level member of a JSON object, without surrounding white
 * space, by decoded name (a repeated name keeps its last value, as JSON.parse does). JSON.parse
 * loses what merchants expect back byte for byte in `metadata` (number spellings such as `1.50`).
 * `text` must already have passed JSON.parse as an object: this only finds boundaries, in one
 * pass and without recursion.
 */
export function topLevelMemberTexts(text: string): Map<string, string> {
  const members = new Map<string, string>();
  let depth = 0;
  let name: string | undefined;
  let valueStart = -1;
  let expectName = false;
  const close = (end: number): void => {
    if (name !== undefined && valueStart >= 0) members.set(name, text.slice(valueStart, end).trim());
    name = undefined;
    valueStart = -1;
  };
  STRING_OR_STRUCTURE.lastIndex = 0;
  for (let m = STRING_OR_STRUCTURE.exec(text); m !== null; m = STRING_OR_STRUCTURE.exec(text)) {
    const token = m[0];
    if (token.startsWith('"')) {
      if (depth === 1 && expectName) {
        name = JSON.parse(token) as string;
        expectName = false;
      }
      continue;
    }
    if (depth === 1 && token === ":") valueStart = m.index + 1;
    else if (depth === 1 && token === ",") {
      close(m.index);
      expectName = true;
    } else if (token === "{" || token === "[") {
      depth += 1;
      if (depth === 1) expectName = true;
    } else if (token === "}" || token === "]") {
      if (depth === 1) close(m.index);
      depth -= 1;
    }
  }
  return members;
}
