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

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Escapes text for element content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => ESCAPES[ch]!);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false || value === true) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Joins fragments with a separator (both escaped unless SafeHtml). */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ""): SafeHtml {
  return new SafeHtml(parts.map(render).join(render(separator)));
}
