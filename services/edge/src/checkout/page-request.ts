import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import { CSRF_COOKIE, CsrfTokens } from "./csrf.js";
import { chooseLanguage, type Language, messagesFor } from "./i18n/languages.js";
import type { Messages } from "./i18n/messages.js";

export const LANGUAGE_COOKIE = "gw_lang";
const COOKIE_PATH = "/checkout";
const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 3600;

/** One checkout request's language, messages and cookies. */
export class PageRequest {
  readonly language: Language;
  readonly m: Messages;
  private readonly cookies: Record<string, string | undefined>;
  private readonly setCookies: Array<{ name: string; value: string; options: CookieSerializeOptions }> = [];

  constructor(
    private readonly request: FastifyRequest,
    private readonly secureCookies: boolean,
    /** A language the page itself carries (the Pay form's hidden field), after ?lang=. */
    formLanguage?: string,
  ) {
    // @fastify/cookie parsed them; an answer decided before its hook ran (a malformed URL) parses here.
    this.cookies = request.cookies ?? request.server.parseCookie(request.headers.cookie ?? "");
    const query = (request.query ?? {}) as Record<string, unknown>;
    const choice = chooseLanguage({
      query: query.lang ?? formLanguage,
      cookie: this.cookies[LANGUAGE_COOKIE],
      acceptLanguage: request.headers["accept-language"],
    });
    this.language = choice.language;
    this.m = messagesFor(choice.language);
    // An explicit choice is remembered, so the next page (and the return from the bank) keeps it.
    if (choice.chosenNow && this.cookies[LANGUAGE_COOKIE] !== choice.language) {
      this.setCookies.push({
        name: LANGUAGE_COOKIE,
        value: choice.language,
        options: { ...cookieOptions(secureCookies), maxAge: LANGUAGE_COOKIE_MAX_AGE },
      });
    }
  }

  /** The nonce the CSRF cookie holds (undefined when absent or malformed). */
  csrfNonce(): string | undefined {
    const nonce = this.cookies[CSRF_COOKIE];
    return CsrfTokens.isNonce(nonce) ? nonce : undefined;
  }

  /** The cookie's nonce, or a new one set on this answer: pages with forms need one. */
  ensureCsrfNonce(): string {
    const existing = this.csrfNonce();
    if (existing !== undefined) return existing;
    const nonce = CsrfTokens.newNonce();
    this.setCookies.push({ name: CSRF_COOKIE, value: nonce, options: cookieOptions(this.secureCookies) });
    return nonce;
  }

  /**
   * This request's path with `lang` replaced: the switcher's link to each language. Only the
   * path and query of the request target are used, never a host: an absolute-form target
   * (`GET http://evil.example/checkout/…`) or a `//host` path cannot put a foreign host in a link.
   */
  languageHrefFor(basePath?: string): (language: Language) => string {
    const target = requestTarget(this.request.raw.url ?? this.request.url);
    const path = basePath ?? target.path;
    const params = new URLSearchParams(basePath === undefined ? target.query : "");
    return (language) => {
      params.set("lang", language);
      return `${path}?${params.toString()}`;
    };
  }

  /** Writes the cookies this request decided on; call before sending. */
  applyCookies(reply: FastifyReply): void {
    for (const { name, value, options } of this.setCookies) reply.setCookie(name, value, options);
  }
}

/**
 * Every checkout cookie: HttpOnly, on /checkout only, SameSite=Lax (it travels on the buyer's own
 * top-level navigations, coming back from the acquirer, but not on cross-site POSTs: half of the
 * CSRF defence), Secure with an https public URL. Values are base64url or language codes.
 */
function cookieOptions(secure: boolean): CookieSerializeOptions {
  return { path: COOKIE_PATH, httpOnly: true, secure, sameSite: "lax" };
}

/** Path (always starting with one "/") and query of a request target, whatever its form. */
function requestTarget(raw: string): { path: string; query: string } {
  try {
    const url = new URL(raw, "http://request-target.invalid");
    return { path: `/${url.pathname.replace(/^\/+/, "")}`, query: url.search };
  } catch {
    return { path: "/checkout", query: "" };
  }
}
