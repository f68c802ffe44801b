import { checkHttpUrl } from "@gateway/platform";
import type { FastifyReply } from "fastify";
import type { SafeHtml } from "./html.js";

/**
 * The checkout pages' policy: nothing runs (no script source at all), styles and images only
 * from this origin, forms post only here and to the listed origins (browsers apply form-action
 * to the redirect after a POST, hence the acquirer's and the merchant's cancel origin), and the
 * page cannot be framed (clickjacking a Pay button) nor have its base URL changed.
 */
export function contentSecurityPolicy(formActionOrigins: readonly string[]): string {
  const sources = formActionOrigins.map(cspSourceOf).filter((source) => source !== undefined);
  const formAction = ["'self'", ...new Set(sources)].join(" ");
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

// CSP host-source grammar (CSP3 2.3.1), narrowed to what an origin can be: scheme, ASCII host
// labels, optional port. Nothing else can appear, so no `;`, `,`, `'` or space ends the directive.
const CSP_ORIGIN_SOURCE = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[0-9]{1,5})?$/;

/**
 * The CSP source for an origin, or undefined when it cannot be written safely (an IPv6 literal,
 * or anything a stored URL from before strict validation may hold): the browser then refuses
 * that form target, which is the safe failure.
 */
export function cspSourceOf(origin: string): string | undefined {
  let serialized: string;
  try {
    serialized = new URL(origin).origin;
  } catch {
    return undefined;
  }
  return CSP_ORIGIN_SOURCE.test(serialized) ? serialized : undefined;
}

/** Headers every checkout answer carries, pages and redirects alike. */
function privateAnswerHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff");
}

export function sendPage(
  reply: FastifyReply,
  status: number,
  page: SafeHtml,
  formActionOrigins: readonly string[],
): FastifyReply {
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

/**
 * Only URLs that pass the gateway's URL validator become links or redirects: never javascript:,
 * data:, a relative surprise, or a URL stored before validation was strict.
 */
export function httpUrlOrUndefined(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  const checked = checkHttpUrl(value);
  return checked.ok ? checked.href : undefined;
}

export function originOf(url: string | undefined): string | undefined {
  const checked = httpUrlOrUndefined(url);
  return checked === undefined ? undefined : new URL(checked).origin;
}
