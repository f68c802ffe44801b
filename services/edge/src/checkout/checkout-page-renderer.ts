import type { FastifyReply } from "fastify";
import type { SafeHtml } from "./html.js";
import type { Language } from "./i18n/languages.js";
import type { PageRequest } from "./page-request.js";
import { sendPage } from "./security-headers.js";
import { renderLayout } from "./views/layout.js";
import { type NoticeView, renderNoticeMain } from "./views/notice-page.js";

export interface PageFrame {
  merchantName?: string;
  testMode?: boolean;
  /** Where the language switcher links; default: this request's URL with ?lang= replaced. */
  languageHref?: (language: Language) => string;
  refresh?: { seconds: number; url: string };
  /** Origins this page's forms may reach beyond the configured ones (the merchant's cancel_url). */
  extraFormActions?: string[];
}

/** Wraps page content in the layout and sends it with the checkout headers and cookies. */
export class CheckoutPageRenderer {
  constructor(
    private readonly stylesheetHref: string,
    private readonly formActionOrigins: readonly string[],
  ) {}

  send(
    reply: FastifyReply,
    page: PageRequest,
    status: number,
    title: string,
    main: SafeHtml,
    frame: PageFrame = {},
  ): FastifyReply {
    page.applyCookies(reply);
    const document = renderLayout({
      language: page.language,
      m: page.m,
      title,
      stylesheetHref: this.stylesheetHref,
      languageHref: frame.languageHref ?? page.languageHrefFor(),
      main,
      ...(frame.merchantName === undefined ? {} : { merchantName: frame.merchantName }),
      ...(frame.testMode === undefined ? {} : { testMode: frame.testMode }),
      ...(frame.refresh === undefined ? {} : { refresh: frame.refresh }),
    });
    return sendPage(reply, status, document, [...this.formActionOrigins, ...(frame.extraFormActions ?? [])]);
  }

  sendNotice(
    reply: FastifyReply,
    page: PageRequest,
    status: number,
    view: NoticeView,
    frame: PageFrame = {},
  ): FastifyReply {
    return this.send(reply, page, status, view.notice.title, renderNoticeMain(view), frame);
  }
}
