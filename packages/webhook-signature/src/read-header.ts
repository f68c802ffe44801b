export type HeaderBag = Record<string, string | string[] | undefined> | Headers;

function isFetchHeaders(headers: object): headers is Headers {
  return typeof (headers as { get?: unknown }).get === "function";
}

/**
 * Every value of one header, whatever the casing of its name: Node's `req.headers`, a plain
 * object written by hand, or a fetch `Headers`. Anything unexpected reads as absent.
 */
export function headerValues(headers: unknown, name: string): string[] {
  if (headers === null || typeof headers !== "object") return [];
  const wanted = name.toLowerCase();
  if (isFetchHeaders(headers)) {
    try {
      const value = headers.get(wanted);
      return typeof value === "string" ? [value] : [];
    } catch {
      return [];
    }
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    if (typeof value === "string") values.push(value);
    else if (Array.isArray(value)) values.push(...value.filter((v): v is string => typeof v === "string"));
  }
  return values;
}

/** A header that must appear once (several different values make it ambiguous). */
export function singleHeader(headers: unknown, name: string): string | undefined | "ambiguous" {
  const values = [...new Set(headerValues(headers, name).map((v) => v.trim()))];
  if (values.length > 1) return "ambiguous";
  return values[0];
}
