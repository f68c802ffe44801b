/**
 * JSON text that is inserted verbatim when serialising (the merchant's metadata, kept exactly
 * as it was sent). Only build it from text that is known to be valid JSON.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonOutput = null | boolean | number | string | RawJson | JsonOutput[] | { [key: string]: JsonOutput | undefined };

/**
 * JSON.stringify for response bodies that may hold RawJson values. Object keys whose value is
 * `undefined` are left out, as JSON.stringify does.
 */
export function stringifyWithRaw(value: JsonOutput): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => stringifyWithRaw(item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members: string[] = [];
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${stringifyWithRaw(member)}`);
    }
    return `{${members.join(",")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("Cannot serialise a non-finite number");
  return JSON.stringify(value);
}
