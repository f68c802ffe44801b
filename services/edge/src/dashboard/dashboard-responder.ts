import { type ErrorReason, errorCatalog } from "@gateway/platform";
import type { FastifyReply } from "fastify";
import type { SafeHtml } from "../checkout/html.js";
import { redirectSeeOther, sendPage } from "../checkout/security-headers.js";
import type { DashboardPage } from "./dashboard-page.js";
import { renderDashboardLayout, type Section, type Stylesheets } from "./views/dashboard-layout.js";
import { type DashboardNotice, renderNoticeMain } from "./views/dashboard-notice.js";

/**
 * How every dashboard answer leaves: the page's cookies, the checkout's security headers (strict
 * CSP with no script source, no framing, no caching, no referrer), forms posting only here.
 */
export class DashboardResponder {
  constructor(private readonly stylesheets: Stylesheets) {}

  page(
    reply: FastifyReply,
    page: DashboardPage,
    o: { status?: number; title: string; main: SafeHtml; section?: Section },
  ): FastifyReply {
    page.applyCookies(reply);
    const layout = renderDashboardLayout({
      page,
      stylesheets: this.stylesheets,
      title: o.title,
      main: o.main,
      ...(o.section ? { section: o.section } : {}),
    });
    return sendPage(reply, o.status ?? 200, layout, []);
  }

  notice(reply: FastifyReply, page: DashboardPage, status: number, notice: DashboardNotice): FastifyReply {
    return this.page(reply, page, { status, title: notice.title, main: renderNoticeMain(notice) });
  }

  /** 303: the browser follows with a GET, so a reload never posts a form twice. */
  redirect(reply: FastifyReply, page: DashboardPage, location: string): FastifyReply {
    page.applyCookies(reply);
    return redirectSeeOther(reply, location);
  }

  forbidden(reply: FastifyReply, page: DashboardPage): FastifyReply {
    const { m } = page;
    return this.notice(reply, page, 403, {
      title: m.errors.forbiddenTitle,
      body: m.errors.forbidden,
      tone: "alert",
      action: { label: m.errors.backToDashboard, href: "/dashboard/payments" },
    });
  }

  notFound(reply: FastifyReply, page: DashboardPage): FastifyReply {
    const { m } = page;
    return this.notice(reply, page, 404, {
      title: m.errors.notFoundTitle,
      body: m.errors.notFound,
      action: { label: m.errors.backToDashboard, href: "/dashboard/payments" },
    });
  }

  /** A failure of the gateway itself: unavailable (retry) or unexpected (quote the reference). */
  failure(reply: FastifyReply, page: DashboardPage, reason: ErrorReason, requestId: string): FastifyReply {
    const { m } = page;
    const status = errorCatalog[reason].httpStatus;
    if (status === 503 || status === 502 || status === 429) {
      return this.notice(reply, page, 503, {
        title: m.errors.unavailableTitle,
        body: m.errors.unavailable,
        tone: "alert",
        action: { label: m.errors.backToDashboard, href: "/dashboard/payments" },
      });
    }
    if (status === 404) return this.notFound(reply, page);
    if (status === 403) return this.forbidden(reply, page);
    if (status >= 500) {
      return this.notice(reply, page, 500, {
        title: m.errors.unexpectedTitle,
        body: m.errors.unexpected,
        tone: "alert",
        reference: { label: m.errors.reference, value: requestId },
      });
    }
    return this.notice(reply, page, status, {
      title: m.errors.badRequestTitle,
      body: m.errors.badRequest,
      tone: "alert",
      action: { label: m.errors.backToDashboard, href: "/dashboard/payments" },
    });
  }
}
