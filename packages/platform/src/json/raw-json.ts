/**
 * JSON text that is inserted verbatim when serialising (the merchant's metadata, kept exactly
 * as it was sent). Only build it from text that is known to be valid JSON.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonOutput =
  | null
  | boolean
  | number
  | string
  | RawJson
  | JsonOutput[]
  | { [key: string]: JsonOutput | undefined };

/** Member names as JSON text, by name: the same few dozen names recur in every document. */
const quotedNames = new Map<string, string>();
/** Names kept at most: documents are ours, but a name may come from elsewhere. */
const MAX_QUOTED_NAMES = 1_000;

function quotedName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (quotedNames.size < MAX_QUOTED_NAMES) quotedNames.set(name, quoted);
  }
  return quoted;
}

/**
 * JSON.stringify for documents that may hold RawJson values. Object members keep their
 * insertion order; those whose value is `undefined` are left out, as JSON.stringify does.
 * Built by appending to one string, with member names quoted once: every response body passes
 * here, and arrays of members joined at each level cost twice the time
 * (docs/decisions.md#json-bodies-are-written-in-one-pass).
 */
export function stringifyWithRaw(value: JsonOutput): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + stringifyWithRaw(value[i]!);
    return `${text}]`;
  }
  if (value !== null && typeof value === "object") {
    let text = "{";
    for (const name of Object.keys(value)) {
      const member = value[name];
      if (member === undefined) continue;
      text += `${text.length === 1 ? "" : ","}${quotedName(name)}:${stringifyWithRaw(member)}`;
    }
    return `${text}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value))
    throw new TypeError("Cannot serialise a non-finite number");
  return JSON.stringify(value);
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
