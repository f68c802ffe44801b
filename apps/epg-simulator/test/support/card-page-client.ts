// Drives the simulator's card page the way a browser without JavaScript does: load the page,
// find the form and its inputs by their autocomplete tokens (as autofill would), post it, and
// look at the redirect without following it.

export interface CardEntry {
  name?: string;
  number: string;
  expiry?: string;
  cvc?: string;
}

export interface LoadedForm {
  action: string;
  fields: Record<"cc-name" | "cc-number" | "cc-exp" | "cc-csc", string>;
  html: string;
  response: Response;
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export async function loadCardForm(formUrl: string): Promise<LoadedForm> {
  const response = await fetch(formUrl);
  const html = await response.text();
  const formTag = /<form\b[^>]*>/.exec(html)?.[0];
  if (formTag === undefined) throw new Error(`no form on the card page (HTTP ${response.status})`);
  const action = new URL(unescapeHtml(attribute(formTag, "action") ?? ""), formUrl).toString();
  const fields: Partial<LoadedForm["fields"]> = {};
  for (const input of html.match(/<input\b[^>]*>/g) ?? []) {
    const token = attribute(input, "autocomplete");
    const name = attribute(input, "name");
    if (token !== undefined && name !== undefined) fields[token as keyof LoadedForm["fields"]] = name;
  }
  for (const token of ["cc-name", "cc-number", "cc-exp", "cc-csc"] as const) {
    if (fields[token] === undefined)
      throw new Error(`the card page has no input with autocomplete="${token}"`);
  }
  return { action, fields: fields as LoadedForm["fields"], html, response };
}

/** A future expiry in MM/YY, two years ahead of the real clock. */
export function futureExpiry(): string {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, "0")}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, "0")}`;
}

/** Posts the card like a browser; the answer is returned unfollowed (a 303 or an error page). */
export async function submitCard(formUrl: string, card: CardEntry): Promise<Response> {
  const form = await loadCardForm(formUrl);
  const body = new URLSearchParams({
    [form.fields["cc-name"]]: card.name ?? "Ada Lovelace",
    [form.fields["cc-number"]]: card.number,
    [form.fields["cc-exp"]]: card.expiry ?? futureExpiry(),
    [form.fields["cc-csc"]]: card.cvc ?? "123",
  });
  return fetch(form.action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
}
