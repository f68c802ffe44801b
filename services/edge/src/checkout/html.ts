/**
 * HTML built from template literals where every interpolation is escaped unless it is itself
 * SafeHtml (the result of another `html` template). There is no other way to put markup into a
 * page, so merchant-supplied text (names, items, descriptions) can never become markup.
 */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: text is escaped, SafeHtml kept, lists joined, absent values dropped. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

/**
 * The characters that could end text or an attribute value. A native search finds the first one
 * in about half the time of a loop over `entityFor`, and most text has none.
 */
const SPECIAL = /[&<>"'`]/;

/** The entity that stands for a character of `SPECIAL`; undefined for any other character. */
function entityFor(code: number): string | undefined {
  switch (code) {
    case 38:
      return "&amp;";
    case 60:
      return "&lt;";
    case 62:
      return "&gt;";
    case 34:
      return "&quot;";
    case 39:
      return "&#39;";
    case 96:
      return "&#96;";
    default:
      return undefined;
  }
}

/**
 * Escapes text for element content and for quoted attribute values. Most text on a page has
 * nothing to escape and is returned as it is; otherwise the text between special characters is
 * copied in slices, with no callback per match (docs/decisions.md#page-text-is-escaped-in-one-pass).
 */
export function escapeHtml(text: string): string {
  const first = text.search(SPECIAL);
  if (first === -1) return text;
  let out = "";
  let copied = 0;
  for (let i = first; i < text.length; i++) {
    const entity = entityFor(text.charCodeAt(i));
    if (entity === undefined) continue;
    out += text.slice(copied, i) + entity;
    copied = i + 1;
  }
  return out + text.slice(copied);
}

function render(value: HtmlValue): string {
  if (typeof value === "string") return escapeHtml(value);
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false || value === true) return "";
  if (Array.isArray(value)) {
    let out = "";
    for (const item of value) out += render(item);
    return out;
  }
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Joins fragments with a separator (both escaped unless SafeHtml). */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ""): SafeHtml {
  return new SafeHtml(parts.map(render).join(render(separator)));
}
