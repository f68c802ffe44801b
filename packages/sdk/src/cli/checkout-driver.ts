// Pays a test session over plain HTTP, as a browser without JavaScript would: the hosted checkout
// page's Pay form (with its CSRF cookie), then the test acquirer's card page, then the redirect back
// to the gateway. Only for `gateway trigger` on test keys: the simulator's test cards decide the
// outcome (docs/api/checkout.md#test-cards). Forms are found by their action and inputs by their
// autocomplete tokens, the way a password manager reads them.

interface HtmlForm {
  action: string;
  fields: URLSearchParams;
  /** autocomplete token → input name */
  autocomplete: Map<string, string>;
}

const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`)
    .exec(tag)?.[1]
    ?.replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"');

function formsIn(html: string, pageUrl: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => {
    const fields = new URLSearchParams();
    const autocomplete = new Map<string, string>();
    for (const [input] of m[2]!.matchAll(/<input\b[^>]*>/g)) {
      const name = attr(input, "name");
      if (name === undefined) continue;
      fields.set(name, attr(input, "value") ?? "");
      const token = attr(input, "autocomplete");
      if (token !== undefined) autocomplete.set(token, name);
    }
    return { action: new URL(attr(m[1]!, "action") ?? pageUrl, pageUrl).toString(), fields, autocomplete };
  });
}

async function postForm(form: HtmlForm, cookie?: string): Promise<Response> {
  return fetch(form.action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: form.fields,
  });
}

function expiryTwoYearsAhead(now = new Date()): string {
  return `${String(now.getUTCMonth() + 1).padStart(2, "0")}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, "0")}`;
}

/** Opens `checkoutUrl`, presses Pay, enters `cardNumber` and follows the buyer back to the gateway. */
export async function payWithTestCard(checkoutUrl: string, cardNumber: string): Promise<void> {
  const checkout = await fetch(checkoutUrl);
  const cookie = checkout.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const pay = formsIn(await checkout.text(), checkoutUrl).find((f) =>
    /\/pay$/.test(new URL(f.action).pathname),
  );
  if (checkout.status !== 200 || pay === undefined)
    throw new Error(`the checkout page cannot be paid (HTTP ${checkout.status})`);
  const paid = await postForm(pay, cookie);
  const cardPageUrl = paid.headers.get("location");
  await paid.arrayBuffer();
  if (paid.status !== 303 || cardPageUrl === null) throw new Error(`Pay answered HTTP ${paid.status}`);

  const cardPageAt = new URL(cardPageUrl, checkoutUrl).toString();
  const cardForm = formsIn(await (await fetch(cardPageAt)).text(), cardPageAt)[0];
  if (cardForm === undefined) throw new Error("the acquirer's card page has no form");
  const entries: [string, string][] = [
    ["cc-name", "Test Buyer"],
    ["cc-number", cardNumber],
    ["cc-exp", expiryTwoYearsAhead()],
    ["cc-csc", "123"],
  ];
  for (const [token, value] of entries) {
    const name = cardForm.autocomplete.get(token);
    if (name === undefined) throw new Error(`the card page has no ${token} input`);
    cardForm.fields.set(name, value);
  }
  const submitted = await postForm(cardForm);
  const back = submitted.headers.get("location");
  await submitted.arrayBuffer();
  if (back === null) throw new Error(`the card page answered HTTP ${submitted.status} without a redirect`);
  // The buyer's return to the gateway; the outcome itself is read back through the API.
  await (await fetch(new URL(back, cardPageAt), { redirect: "manual" })).arrayBuffer();
}
