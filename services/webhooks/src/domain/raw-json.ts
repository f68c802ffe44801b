/** JSON text spliced verbatim into a serialised document (the merchant's metadata). */
export class RawJson {
  constructor(readonly text: string) {}
}

export type JsonValue = null | boolean | number | string | RawJson | JsonValue[] | { [key: string]: JsonValue };

/** JSON.stringify that inserts RawJson text as is; object members keep their insertion order. */
export function stringifyJson(value: JsonValue): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([key, member]) => `${JSON.stringify(key)}:${stringifyJson(member)}`)
      .join(",")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("Cannot serialise a non-finite number");
  return JSON.stringify(value);
}
