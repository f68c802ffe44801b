import type { FastifyReply } from "fastify";
import type { SafeHtml } from "./html.js";

/**
 * The checkout pages' policy: nothing runs (no script source at all), styles and images only
 * from this origin, forms post only here and to the listed origins (browsers apply form-action
 * to the redirect after a POST, hence the acquirer's and the merchant's cancel origin), and the
 * page cannot be framed (clickjacking a Pay button) nor have its base URL changed.
 */
export function contentSecurityPolicy(formActionOrigins: readonly string[]): string {
  const formAction = ["'self'", ...new Set(formActionOrigins)].join(" ");
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Headers every checkout answer carries, pages and redirects alike. */
function privateAnswerHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff");
}

export function sendPage(reply: FastifyReply, status: number, page: SafeHtml, formActionOrigins: readonly string[]): FastifyReply {
  return privateAnswerHeaders(reply)
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", contentSecurityPolicy(formActionOrigins))
    .header("x-frame-options", "DENY")
    .send(page.text);
}

/** 303 See Other: the browser follows with a GET, so a reload never re-posts a form. */
export function redirectSeeOther(reply: FastifyReply, location: string): FastifyReply {
  return privateAnswerHeaders(reply).code(303).header("location", location).send();
}

/** Only http(s) URLs become links or redirects: never javascript:, data: or a relative surprise. */
export function httpUrlOrUndefined(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export function originOf(url: string | undefined): string | undefined {
  const checked = httpUrlOrUndefined(url);
  return checked === undefined ? undefined : new URL(checked).origin;
}
