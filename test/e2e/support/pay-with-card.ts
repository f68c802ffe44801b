/**
 * Pays a session the way a browser without JavaScript does: GET the hosted checkout page, POST
 * its Pay form (with the CSRF field and cookie), follow to the acquirer's card page, POST the card
 * form, and follow the acquirer's redirect back to the gateway's return URL.
 */
export interface CardDetails {
  number: string;
  expiry?: string;
  cvc?: string;
  name?: string;
}

export interface PaymentRun {
  /** The acquirer's order id (the `orderId` on the return URL). */
  orderId: string;
  /** Status and Location (or page) of the gateway's answer on the return URL. */
  returnStatus: number;
  returnLocation: string | null;
  returnPage: string;
}

class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

function formOf(html: string, actionPattern: RegExp): { action: string; fields: Map<string, string> } {
  for (const form of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const action = /action="([^"]*)"/.exec(form[1]!)?.[1]?.replace(/&amp;/g, "&");
    if (action === undefined || !actionPattern.test(action)) continue;
    const fields = new Map<string, string>();
    for (const input of form[2]!.matchAll(/<input\b([^>]*)>/g)) {
      const name = /name="([^"]+)"/.exec(input[1]!)?.[1];
      if (name) fields.set(name, /value="([^"]*)"/.exec(input[1]!)?.[1] ?? "");
    }
    return { action, fields };
  }
  throw new Error(`no form with an action matching ${actionPattern} in:\n${html.slice(0, 2000)}`);
}

const form = (fields: Map<string, string>) => ({
  method: "POST",
  redirect: "manual" as const,
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams([...fields]).toString(),
});

/** Opens the checkout link and presses Pay; returns the acquirer card page URL. */
export async function startPayment(
  checkoutUrl: string,
  jar = new CookieJar(),
): Promise<{ cardPageUrl: string; jar: CookieJar }> {
  const page = await fetch(checkoutUrl);
  jar.take(page);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`checkout page answered ${page.status}:\n${html.slice(0, 1000)}`);
  const pay = formOf(html, /\/pay$/);
  const res = await fetch(new URL(pay.action, checkoutUrl), {
    ...form(pay.fields),
    headers: { ...form(pay.fields).headers, cookie: jar.header() },
  });
  const location = res.headers.get("location");
  if (res.status !== 303 || !location)
    throw new Error(`Pay answered ${res.status}:\n${(await res.text()).slice(0, 1000)}`);
  return { cardPageUrl: new URL(location, checkoutUrl).toString(), jar };
}

/** Fills the acquirer's card page and returns where the gateway sends the buyer afterwards. */
export async function payWithCard(checkoutUrl: string, card: CardDetails): Promise<PaymentRun> {
  const { cardPageUrl } = await startPayment(checkoutUrl);
  const cardPage = await (await fetch(cardPageUrl)).text();
  const cardForm = formOf(cardPage, /./);
  const set = (pattern: RegExp, value: string) => {
    for (const name of cardForm.fields.keys()) if (pattern.test(name)) cardForm.fields.set(name, value);
  };
  set(/number|pan/i, card.number);
  set(/cvc|cvv/i, card.cvc ?? "123");
  set(/name|holder/i, card.name ?? "Test Buyer");
  set(/^expiry$|^exp$/i, card.expiry ?? "12/34");
  set(/month/i, (card.expiry ?? "12/34").split("/")[0]!);
  set(/year/i, `20${(card.expiry ?? "12/34").split("/")[1]!}`);
  const submitted = await fetch(new URL(cardForm.action, cardPageUrl), form(cardForm.fields));
  const back = submitted.headers.get("location");
  if (submitted.status !== 303 || !back)
    throw new Error(`card page answered ${submitted.status}:\n${(await submitted.text()).slice(0, 1000)}`);
  const returnUrl = new URL(back, cardPageUrl);
  const orderId = returnUrl.searchParams.get("orderId") ?? "";
  const answer = await fetch(returnUrl, { redirect: "manual" });
  return {
    orderId,
    returnStatus: answer.status,
    returnLocation: answer.headers.get("location"),
    returnPage: await answer.text(),
  };
}
