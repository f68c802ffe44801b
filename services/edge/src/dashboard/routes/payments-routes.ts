import { randomUUID } from "node:crypto";
import { fromConnectError } from "@gateway/platform";
import { RefundType } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { readPaymentsFilter } from "../payments/payments-filter.js";
import { type RefundFormProblem, readRefundForm } from "../payments/refund-form.js";
import { loadSessionDetail } from "../payments/session-detail.js";
import { may } from "../permissions.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";
import { renderPaymentsList } from "../views/payments-list-page.js";
import { renderSessionDetail } from "../views/session-detail-page.js";

/** A session id as the gateway mints it; anything else is a 404 without a lookup. */
const SESSION_ID = /^ps_[0-9A-Za-z]{1,64}$/;

/** Gateway refusals a merchant can act on are shown with the service's words; the rest are failures. */
const SHOWN_REFUSALS = new Set([
  "VALIDATION_ERROR",
  "REFUND_FAILED",
  "INVALID_STATE",
  "NO_PAYMENT",
  "SESSION_TERMINAL",
  "CONFLICT",
]);

type Params = { Params: { id: string } };

/** The payments list, one payment's page, and its cancel and refund (both confirmed first). */
export function registerPaymentsRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { clients, respond, secureCookies } = deps;

  scope.get("/payments", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    const filter = readPaymentsFilter(request.query as Record<string, unknown>, viewer.scope);
    if (!filter.ok) {
      return respond.page(reply, page, {
        status: 422,
        title: page.m.payments.title,
        section: "payments",
        main: renderPaymentsList({ m: page.m, form: filter.form, problems: filter.problems, sessions: [] }),
      });
    }
    const { sessions, pageInfo } = await clients.sessions.listSessions(filter.request);
    let nextHref: string | undefined;
    if (pageInfo?.hasMore && pageInfo.nextCursor !== "") {
      const next = new URLSearchParams({ ...filter.form, after: pageInfo.nextCursor });
      nextHref = `/dashboard/payments?${next.toString()}`;
    }
    return respond.page(reply, page, {
      title: page.m.payments.title,
      section: "payments",
      main: renderPaymentsList({
        m: page.m,
        form: filter.form,
        problems: [],
        sessions,
        ...(nextHref ? { nextHref } : {}),
      }),
    });
  });

  const detailPage = async (
    reply: FastifyReply,
    page: DashboardPage,
    id: string,
    o: { status?: number; flash?: SafeHtml; refundProblems?: RefundFormProblem[] } = {},
  ) => {
    const viewer = page.viewer!;
    if (!SESSION_ID.test(id)) return respond.notFound(reply, page);
    const detail = await loadSessionDetail(clients, viewer.scope, id);
    if (!detail) return respond.notFound(reply, page);
    return respond.page(reply, page, {
      status: o.status ?? 200,
      title: page.m.session.title(detail.session.merchantReference),
      section: "payments",
      main: renderSessionDetail({
        m: page.m,
        detail,
        csrf: csrfInput(page),
        mayCancel: may(viewer.user.role, "cancel"),
        mayRefund: may(viewer.user.role, "refund") && clients.refunds !== undefined,
        flash: o.flash ?? html``,
        ...(o.refundProblems ? { refundProblems: o.refundProblems } : {}),
      }),
    });
  };

  /** A refusal the merchant can act on, on the payment's page; anything else is a failure page. */
  const refused = (reply: FastifyReply, page: DashboardPage, id: string, err: unknown) => {
    const failure = fromConnectError(err);
    if (!SHOWN_REFUSALS.has(failure.reason)) throw failure;
    return detailPage(reply, page, id, {
      status: 409,
      flash: renderFlash({ text: `${page.m.session.actionRefused}: ${failure.message}`, tone: "alert" }),
    });
  };

  scope.get<Params>("/payments/:id", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const query = request.query as Record<string, unknown>;
    const flash =
      query.done === "canceled"
        ? renderFlash({ text: page.m.session.canceled, tone: "success" })
        : query.done === "refunded"
          ? renderFlash({ text: page.m.session.refunded, tone: "success" })
          : undefined;
    return detailPage(reply, page, request.params.id, flash ? { flash } : {});
  });

  scope.get<Params>("/payments/:id/cancel", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const { m } = page;
    if (!may(page.viewer!.user.role, "cancel")) return respond.forbidden(reply, page);
    const { id } = request.params;
    if (!SESSION_ID.test(id)) return respond.notFound(reply, page);
    const detail = await loadSessionDetail({ sessions: clients.sessions }, page.viewer!.scope, id);
    if (!detail) return respond.notFound(reply, page);
    return respond.page(reply, page, {
      title: m.session.cancel,
      section: "payments",
      main: html`<h1>${m.session.cancel}</h1>
<p>${m.session.cancelConfirm}</p>
<form method="post" action="${`/dashboard/payments/${id}/cancel`}">${csrfInput(page)}
<button class="button danger inline" type="submit">${m.session.cancel}</button>
<a class="button secondary inline" href="${`/dashboard/payments/${id}`}">${m.session.back}</a>
</form>`,
    });
  });

  scope.post<Params>("/payments/:id/cancel", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    if (!may(viewer.user.role, "cancel")) return respond.forbidden(reply, page);
    const { id } = request.params;
    if (!SESSION_ID.test(id)) return respond.notFound(reply, page);
    try {
      await clients.sessions.cancelSession({ scope: viewer.scope, sessionId: id });
    } catch (err) {
      if (fromConnectError(err).reason === "NOT_FOUND") return respond.notFound(reply, page);
      return refused(reply, page, id, err);
    }
    await audit(deps, page, "session.canceled", id);
    return respond.redirect(reply, page, `/dashboard/payments/${id}?done=canceled`);
  });

  scope.post<Params>("/payments/:id/refund", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const { m } = page;
    const viewer = page.viewer!;
    const refunds = clients.refunds;
    if (!may(viewer.user.role, "refund") || !refunds) return respond.forbidden(reply, page);
    const { id } = request.params;
    if (!SESSION_ID.test(id)) return respond.notFound(reply, page);
    const body = formOf(request.body);
    const read = readRefundForm(Object.fromEntries(body));
    if (!read.ok) return detailPage(reply, page, id, { status: 422, refundProblems: read.problems });
    const { form } = read;
    if (!form.confirmed) {
      // The review step: nothing happens yet. Its form carries a fresh idempotency key, so a
      // double click on "Yes, refund" refunds once.
      const detail = await loadSessionDetail({ sessions: clients.sessions }, viewer.scope, id);
      if (!detail) return respond.notFound(reply, page);
      return respond.page(reply, page, {
        title: m.session.review,
        section: "payments",
        main: html`<h1>${form.type === "FULL" ? m.session.reviewFull : m.session.reviewTitle(form.amount)}</h1>
<p>${m.session.title(detail.session.merchantReference)}</p>
<form method="post" action="${`/dashboard/payments/${id}/refund`}">${csrfInput(page)}
<input type="hidden" name="type" value="${form.type}">
<input type="hidden" name="amount" value="${form.amount}">
<input type="hidden" name="reason" value="${form.reason}">
<input type="hidden" name="key" value="${randomUUID()}">
<input type="hidden" name="confirm" value="yes">
<button class="button primary inline" type="submit">${m.session.confirm}</button>
<a class="button secondary inline" href="${`/dashboard/payments/${id}`}">${m.session.back}</a>
</form>`,
      });
    }
    const key = body.get("key") ?? "";
    try {
      await refunds.createRefund({
        scope: viewer.scope,
        sessionId: id,
        refundType: form.type === "FULL" ? RefundType.FULL : RefundType.PARTIAL,
        ...(form.type === "PARTIAL" ? { amount: form.amount } : {}),
        ...(form.reason !== "" ? { reason: form.reason } : {}),
        ...(/^[0-9a-f-]{36}$/.test(key) ? { idempotencyKey: `dashboard-${key}` } : {}),
      });
    } catch (err) {
      if (fromConnectError(err).reason === "NOT_FOUND") return respond.notFound(reply, page);
      return refused(reply, page, id, err);
    }
    await audit(deps, page, form.type === "FULL" ? "refund.created_full" : "refund.created_partial", id);
    return respond.redirect(reply, page, `/dashboard/payments/${id}?done=refunded`);
  });
}
