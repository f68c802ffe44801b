import { create } from "@bufbuild/protobuf";
import { AccountScopeSchema, CreateSessionRequestSchema, LineItemSchema, type Session } from "@gateway/proto";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestEdge } from "../fakes/edge-test-harness.js";
import type { InMemoryAcquirer } from "../fakes/in-memory-acquirer.js";

export const MERCHANT_ID = "mer_checkoutpages0000000001";

export interface SessionFields {
  amount?: string;
  currency?: string;
  description?: string;
  orderId?: string;
  items?: Array<{ name: string; quantity: number; unitPrice: string; description?: string }>;
  returnUrl?: string;
  cancelUrl?: string;
  maxAttempts?: number;
  livemode?: boolean;
}

let references = 0;

/** A CREATED session in the sessions service, with its checkout link token. */
export async function createPayableSession(
  t: TestEdge,
  fields: SessionFields = {},
): Promise<{ session: Session; token: string }> {
  const { session } = await t.sessions.createSession(
    create(CreateSessionRequestSchema, {
      scope: create(AccountScopeSchema, { merchantId: MERCHANT_ID, livemode: fields.livemode ?? false }),
      merchantReference: `checkout-page-${++references}`,
      amount: fields.amount ?? "125.500",
      currency: fields.currency ?? "TND",
      description: fields.description,
      orderId: fields.orderId,
      items: (fields.items ?? []).map((item) =>
        create(LineItemSchema, { ...item, description: item.description ?? "" }),
      ),
      returnUrl: fields.returnUrl,
      cancelUrl: fields.cancelUrl,
      maxAttempts: fields.maxAttempts,
    }),
  );
  return { session: session!, token: await t.sessions.tokenOf(session!.id) };
}

export function acquirerOf(t: TestEdge): InMemoryAcquirer {
  return t.sessions.inMemoryAcquirer();
}

/** The Cookie header a browser would send back after this answer. */
export function cookiesFrom(res: LightMyRequestResponse, previous = ""): string {
  const jar = new Map(
    previous
      .split(";")
      .map((pair) => pair.trim())
      .filter((pair) => pair !== "")
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)] as const),
  );
  const setCookie = res.headers["set-cookie"];
  for (const line of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
    const pair = line.split(";")[0]!;
    jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

export function setCookieLines(res: LightMyRequestResponse): string[] {
  const setCookie = res.headers["set-cookie"];
  return setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
}

/** A Set-Cookie line as its name=value pair and its attributes, sorted (their order carries no meaning). */
export function cookieParts(line: string): { pair: string; attributes: string[] } {
  const [pair, ...attributes] = line.split(";").map((part) => part.trim());
  return { pair: pair!, attributes: attributes.sort() };
}

/** The CSRF token of the page's forms. */
export function csrfFrom(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("the page has no CSRF field");
  return match[1]!;
}

export function form(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  return {
    payload: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
}

/** Status, HTML type and every security header the checkout pages promise. */
export function expectCheckoutPage(res: LightMyRequestResponse, status: number): string {
  expect(res.statusCode).toBe(status);
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
  const csp = String(res.headers["content-security-policy"]);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("img-src 'self' data:");
  expect(csp).toMatch(/form-action 'self'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toContain("script-src");
  expect(res.headers["x-frame-options"]).toBe("DENY");
  expect(res.headers["referrer-policy"]).toBe("no-referrer");
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.body).not.toMatch(/<script|stack|at .*\.ts:\d+|ConnectError|\[internal\]/i);
  expect(res.body.match(/<h1[\s>]/g)).toHaveLength(1);
  return res.body;
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#96;": "`",
};

/** What a reader sees of some HTML: tags removed, entities decoded. */
export function textOf(html: string): string {
  return html.replace(/<[^>]+>/g, "").replace(/&(amp|lt|gt|quot|#39|#96);/g, (entity) => ENTITIES[entity]!);
}

/** The text of the page's h1. */
export function headingOf(html: string): string {
  const match = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  return textOf(match?.[1] ?? "").trim();
}
