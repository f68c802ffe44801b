import { expect } from "vitest";

/** The checkout page's Pay form as a browser without JavaScript would post it. */
export interface PayForm {
  action: URL;
  body: string;
  cookie: string;
}

/** Opens the checkout link and reads its Pay form (fields, CSRF cookie). */
export async function readPayForm(checkoutUrl: string): Promise<PayForm> {
  const page = await fetch(checkoutUrl);
  expect(page.status).toBe(200);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const html = await page.text();
  const form = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].find((f) =>
    /action="[^"]*\/pay"/.test(f[1]!),
  );
  if (!form) throw new Error(`no Pay form on the checkout page:\n${html.slice(0, 1000)}`);
  const action = new URL(/action="([^"]*)"/.exec(form[1]!)![1]!.replace(/&amp;/g, "&"), checkoutUrl);
  const fields = [...form[2]!.matchAll(/<input\b([^>]*)>/g)]
    .map((i): [string, string] => [
      /name="([^"]+)"/.exec(i[1]!)?.[1] ?? "",
      /value="([^"]*)"/.exec(i[1]!)?.[1] ?? "",
    ])
    .filter(([name]) => name !== "");
  return { action, body: new URLSearchParams(fields).toString(), cookie };
}

/** Posts the Pay form (redirects not followed); returns the answer. */
export async function postPayForm(
  form: PayForm,
): Promise<{ status: number; location: string | null; page: string }> {
  const res = await fetch(form.action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie },
    body: form.body,
  });
  return { status: res.status, location: res.headers.get("location"), page: await res.text() };
}
