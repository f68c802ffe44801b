import { AttemptStatus, DeliveryStatus, SessionStatus } from "@gateway/proto";
import { html, type SafeHtml } from "../../checkout/html.js";
import type { DashboardMessages } from "../i18n/messages.js";
import type { RefundFormProblem } from "../payments/refund-form.js";
import type { SessionDetail } from "../payments/session-detail.js";
import { money, statusText, utcHtml } from "./format.js";

export interface SessionDetailView {
  m: DashboardMessages;
  detail: SessionDetail;
  csrf: SafeHtml;
  mayCancel: boolean;
  mayRefund: boolean;
  flash: SafeHtml;
  refundProblems?: RefundFormProblem[];
}

const CANCELABLE = new Set([SessionStatus.CREATED, SessionStatus.PENDING, SessionStatus.PROCESSING]);

/** One payment: its summary, attempts, webhook deliveries and refunds, and what may be done to it. */
export function renderSessionDetail(view: SessionDetailView): SafeHtml {
  const { m, detail } = view;
  const s = detail.session;
  const attempts =
    detail.attempts.length === 0
      ? html`<p>${m.session.noAttempts}</p>`
      : html`<div class="table-wrap"><table><caption>${m.session.attempts}</caption>
<thead><tr><th scope="col">${m.session.attemptNumber}</th><th scope="col">${m.payments.status}</th><th scope="col">${m.session.card}</th><th scope="col">${m.session.failure}</th><th scope="col">${m.payments.created}</th></tr></thead>
<tbody>${detail.attempts.map(
          (a) =>
            html`<tr><th scope="row">${a.attemptNumber}</th><td>${AttemptStatus[a.status]}</td><td>${a.cardBrand ? html`<bdi dir="ltr">${a.cardBrand} •••• ${a.cardLastFour}</bdi>` : ""}</td><td>${a.failureCode}</td><td>${utcHtml(a.createdAt)}</td></tr>`,
        )}</tbody></table></div>`;
  const deliveries =
    detail.deliveries === "unavailable"
      ? html`<p>${m.session.unavailable}</p>`
      : detail.deliveries.length === 0
        ? html`<p>${m.session.noDeliveries}</p>`
        : html`<div class="table-wrap"><table><caption>${m.session.deliveries}</caption>
<thead><tr><th scope="col">${m.session.event}</th><th scope="col">${m.session.deliveryStatus}</th><th scope="col">${m.session.httpStatus}</th><th scope="col">${m.payments.created}</th></tr></thead>
<tbody>${detail.deliveries.map(
            (d) =>
              html`<tr><th scope="row"><code>${d.event}</code></th><td>${DeliveryStatus[d.status]}</td><td>${d.httpStatusCode ?? ""}</td><td>${utcHtml(d.createdAt)}</td></tr>`,
          )}</tbody></table></div>`;
  const refunds =
    detail.refunds === "unavailable"
      ? html`<p>${m.session.unavailable}</p>`
      : detail.refunds.length === 0
        ? html`<p>${m.session.noRefunds}</p>`
        : html`<div class="table-wrap"><table><caption>${m.session.refunds}</caption>
<thead><tr><th scope="col">${m.session.refund}</th><th scope="col" class="num">${m.session.amount}</th><th scope="col">${m.payments.status}</th><th scope="col">${m.payments.created}</th></tr></thead>
<tbody>${detail.refunds.map(
            (r) =>
              html`<tr><th scope="row">${r.type === "FULL" ? m.session.refundFull : m.session.refundPartial}</th><td class="num">${money(r.amount, r.currency)}</td><td>${m.session.refundStates[r.state]}${r.acquirerMessage ? html` (${r.acquirerMessage})` : ""}</td><td>${utcHtml(r.createdAt)}</td></tr>`,
          )}</tbody></table></div>`;
  const cancel =
    view.mayCancel && CANCELABLE.has(s.status)
      ? html`<p><a class="button secondary inline" href="${`/dashboard/payments/${s.id}/cancel`}">${m.session.cancel}</a></p>`
      : "";
  const problems = view.refundProblems ?? [];
  const refundForm =
    view.mayRefund && s.status === SessionStatus.SUCCEEDED && detail.refunds !== "unavailable"
      ? html`<h2>${m.session.refund}</h2>
${problems.length > 0 ? html`<div class="alert" role="alert">${problems.map((p) => html`<p>${m.session.refundProblems[p]}</p>`)}</div>` : ""}
<form method="post" action="${`/dashboard/payments/${s.id}/refund`}">
${view.csrf}
<fieldset><legend>${m.session.refund}</legend>
<div class="field"><label><input type="radio" name="type" value="FULL" checked> ${m.session.refundFull}</label><label><input type="radio" name="type" value="PARTIAL"> ${m.session.refundPartial}</label></div>
<div class="field"><label for="refund-amount">${m.session.refundAmount}</label><input id="refund-amount" name="amount" type="text" inputmode="decimal" autocomplete="off"></div>
<div class="field"><label for="refund-reason">${m.session.refundReason}</label><input id="refund-reason" name="reason" type="text" maxlength="500"></div>
<button class="button primary inline" type="submit">${m.session.review}</button>
</fieldset>
</form>`
      : "";
  return html`<h1>${m.session.title(s.merchantReference)}</h1>
${view.flash}
<h2>${m.session.summary}</h2>
<dl class="facts">
<div><dt>${m.payments.status}</dt><dd>${statusText(m, s.status)}</dd></div>
<div><dt>${m.session.amount}</dt><dd>${money(s.amount, s.currency)}</dd></div>
${s.original && s.original.currency !== s.currency ? html`<div><dt>${m.session.original}</dt><dd>${money(s.original.amount, s.original.currency)}</dd></div>` : ""}
<div><dt>${m.payments.orderNumber}</dt><dd><bdi>${s.orderNumber}</bdi></dd></div>
<div><dt>${m.session.createdAt}</dt><dd>${utcHtml(s.createdAt)}</dd></div>
${s.completedAt ? html`<div><dt>${m.session.completedAt}</dt><dd>${utcHtml(s.completedAt)}</dd></div>` : ""}
</dl>
${cancel}
<h2>${m.session.attempts}</h2>
${attempts}
<h2>${m.session.deliveries}</h2>
${deliveries}
<h2>${m.session.refunds}</h2>
${refunds}
${refundForm}`;
}
