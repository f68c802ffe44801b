// Drives the EPG simulator's card page as a browser without JavaScript does: load the page,
// find the form and its inputs by their autocomplete tokens, post the card, and read the
// redirect back to the gateway without following it. For tests of the services that pay
// through the simulator.

export interface CardEntry {
  number: string;
  cvc?: string;
  expiry?: string;
  name?: string;
}

export interface CardPageResult {
  status: number;
  /** Where the acquirer sends the buyer (the gateway's return URL with `orderId`). */
  location: string;
  /** The acquirer order id the return URL carries. */
  orderId: string;
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

/** A future expiry in MM/YY, two years ahead of the real clock. */
export function futureExpiry(): string {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, "0")}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, "0")}`;
}

export async function payOnCardPage(formUrl: string, card: CardEntry): Promise<CardPageResult> {
  const page = await fetch(formUrl);
  const html = await page.text();
  const formTag = /<form\b[^>]*>/.exec(html)?.[0];
  if (formTag === undefined) throw new Error(`no card form on the acquirer's page (HTTP ${page.status})`);
  const action = new URL(unescapeHtml(attribute(formTag, "action") ?? ""), formUrl).toString();
  const names: Record<string, string> = {};
  for (const input of html.match(/<input\b[^>]*>/g) ?? []) {
    const token = attribute(input, "autocomplete");
    const name = attribute(input, "name");
    if (token !== undefined && name !== undefined) names[token] = name;
  }
  for (const token of ["cc-name", "cc-number", "cc-exp", "cc-csc"]) {
    if (names[token] === undefined)
      throw new Error(`the card page has no input with autocomplete="${token}"`);
  }
  const body = new URLSearchParams({
    [names["cc-name"]!]: card.name ?? "Ada Lovelace",
    [names["cc-number"]!]: card.number,
    [names["cc-exp"]!]: card.expiry ?? futureExpiry(),
    [names["cc-csc"]!]: card.cvc ?? "123",
  });
  const res = await fetch(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
  await res.arrayBuffer();
  const location = res.headers.get("location") ?? "";
  if (location === "") throw new Error(`the card page did not redirect (HTTP ${res.status})`);
  return { status: res.status, location, orderId: new URL(location).searchParams.get("orderId") ?? "" };
}
