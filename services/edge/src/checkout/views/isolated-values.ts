import { html, joinHtml, type SafeHtml } from "../html.js";

// Private-use characters: they never occur in messages, so they can mark where values go.
const MARKS = ["\ue000", "\ue001", "\ue002"];

/**
 * A message with its values wrapped in <bdi>: an amount such as "125.500 TND" keeps its own
 * left-to-right order inside an Arabic sentence instead of being reordered by the bidi algorithm
 * ("TND 125.500"). The message stays plain text; the values are escaped like any other.
 */
export function withIsolatedValues(message: (...values: string[]) => string, ...values: string[]): SafeHtml {
  const text = message(...MARKS.slice(0, values.length));
  const parts: Array<string | SafeHtml> = [];
  let rest = text;
  values.forEach((value, i) => {
    const at = rest.indexOf(MARKS[i]!);
    if (at === -1) return;
    parts.push(rest.slice(0, at), html`<bdi>${value}</bdi>`);
    rest = rest.slice(at + 1);
  });
  parts.push(rest);
  return joinHtml(parts);
}
