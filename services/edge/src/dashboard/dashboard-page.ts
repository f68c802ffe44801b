import type { CookieSerializeOptions } from "@fastify/cookie";
import type { AccountScope, DashboardUser } from "@gateway/proto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { chooseLanguage, type Language } from "../checkout/i18n/languages.js";
import { dashboardMessagesFor } from "./i18n/dashboard-languages.js";
import type { DashboardMessages } from "./i18n/messages.js";
import type { Section } from "./views/dashboard-layout.js";

export const DASHBOARD_PATH = "/dashboard";
/** The dashboard session's secret (`dss_…`): HttpOnly, so no script could read it even if one ran. */
export const SESSION_COOKIE = "gw_dashboard";
const LANGUAGE_COOKIE = "gw_lang";
const MODE_COOKIE = "gw_mode";
const YEAR_SECONDS = 365 * 24 * 3600;

/** The signed-in dashboard user of a request, and what the request may act on. */
export interface Viewer {
  user: DashboardUser;
  sessionToken: string;
  /** The merchant and the mode the pages show and change: another account is never in reach. */
  scope: AccountScope;
  /** Live mode is open only to a merchant whose business is verified. */
  liveAllowed: boolean;
  /** The value every form of this session carries (dashboard-csrf.ts). */
  csrfToken: string;
  /** The navigation this user sees: the sections served, those of its role. */
  sections: Section[];
}

/**
 * One dashboard request's language, cookies and signed-in user. Cookies live on /dashboard only,
 * HttpOnly, SameSite=Lax (sent on the merchant's own navigations, not on cross-site posts: half
 * of the CSRF defence), Secure when the public URL is https.
 */
export class DashboardPage {
  readonly language: Language;
  readonly m: DashboardMessages;
  viewer: Viewer | undefined;
  private readonly cookies: Record<string, string | undefined>;
  private readonly setCookies: Array<{ name: string; value: string; options: CookieSerializeOptions }> = [];

  constructor(
    readonly request: FastifyRequest,
    private readonly secureCookies: boolean,
  ) {
    this.cookies = request.cookies ?? request.server.parseCookie(request.headers.cookie ?? "");
    const query = (request.query ?? {}) as Record<string, unknown>;
    const choice = chooseLanguage({
      query: query.lang,
      cookie: this.cookies[LANGUAGE_COOKIE],
      acceptLanguage: request.headers["accept-language"],
    });
    this.language = choice.language;
    this.m = dashboardMessagesFor(choice.language);
    if (choice.chosenNow && this.cookies[LANGUAGE_COOKIE] !== choice.language)
      this.setCookie(LANGUAGE_COOKIE, choice.language, YEAR_SECONDS);
  }

  cookie(name: string): string | undefined {
    return this.cookies[name];
  }

  /** The mode the merchant last chose (test unless it chose live). */
  chosenMode(): "test" | "live" {
    return this.cookies[MODE_COOKIE] === "live" ? "live" : "test";
  }

  chooseMode(mode: "test" | "live"): void {
    this.setCookie(MODE_COOKIE, mode, YEAR_SECONDS);
  }

  /** A session cookie (no Max-Age): the server-side session decides how long it lasts. */
  setCookie(name: string, value: string, maxAgeSeconds?: number): void {
    this.setCookies.push({
      name,
      value,
      options: { ...this.cookieOptions(), ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }) },
    });
  }

  clearCookie(name: string): void {
    this.setCookies.push({ name, value: "", options: { ...this.cookieOptions(), maxAge: 0 } });
  }

  /** This page in another language: the path only (never a host), `lang` set. */
  languageHref(language: Language): string {
    const url = new URL(this.request.url, "http://dashboard.invalid");
    url.searchParams.set("lang", language);
    return `${url.pathname}?${url.searchParams.toString()}`;
  }

  applyCookies(reply: FastifyReply): void {
    for (const { name, value, options } of this.setCookies) reply.setCookie(name, value, options);
  }

  private cookieOptions(): CookieSerializeOptions {
    return { path: DASHBOARD_PATH, httpOnly: true, secure: this.secureCookies, sameSite: "lax" };
  }
}

const pages = new WeakMap<FastifyRequest, DashboardPage>();

/** The request's page state, made on first use. */
export function pageOf(request: FastifyRequest, secureCookies: boolean): DashboardPage {
  let page = pages.get(request);
  if (!page) {
    page = new DashboardPage(request, secureCookies);
    pages.set(request, page);
  }
  return page;
}
