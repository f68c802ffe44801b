import { type Session, SessionStatus } from "@gateway/proto";
import { html, type SafeHtml } from "../../checkout/html.js";
import type { DashboardMessages } from "../i18n/messages.js";
import type { FilterProblem, PaymentsFilterForm } from "../payments/payments-filter.js";
import { money, statusText, utcHtml } from "./format.js";

const FILTER_STATUSES = [
  SessionStatus.CREATED,
  SessionStatus.PENDING,
  SessionStatus.PROCESSING,
  SessionStatus.SUCCEEDED,
  SessionStatus.FAILED,
  SessionStatus.EXPIRED,
  SessionStatus.CANCELED,
];

export interface PaymentsListView {
  m: DashboardMessages;
  form: PaymentsFilterForm;
  problems: FilterProblem[];
  sessions: Session[];
  /** The next page's URL, when there is one. */
  nextHref?: string;
}

function field(
  m: DashboardMessages,
  view: PaymentsListView,
  name: keyof PaymentsFilterForm,
  label: string,
  type: "text" | "date",
): SafeHtml {
  const problem = view.problems.find((p) => p.field === name);
  const errorId = `${name}-error`;
  return html`<div class="field"><label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${view.form[name]}"${problem ? html` aria-invalid="true" aria-describedby="${errorId}"` : ""}>${problem ? html`<p class="field-error" id="${errorId}">${m.payments.problems[problem.code]}</p>` : ""}</div>`;
}

/** The payments list: a GET form of filters (works without script), the table, a next-page link. */
export function renderPaymentsList(view: PaymentsListView): SafeHtml {
  const { m } = view;
  const statusProblem = view.problems.find((p) => p.field === "status");
  const options = FILTER_STATUSES.map((status) => {
    const name = SessionStatus[status];
    return html`<option value="${name}"${view.form.status === name ? html` selected` : ""}>${statusText(m, status)}</option>`;
  });
  const rows = view.sessions.map(
    (s) => html`<tr>
<td>${utcHtml(s.createdAt)}</td>
<th scope="row"><a href="${`/dashboard/payments/${s.id}`}">${s.merchantReference}</a></th>
<td><bdi>${s.orderNumber}</bdi></td>
<td class="num">${money(s.amount, s.currency)}</td>
<td>${statusText(m, s.status)}</td>
</tr>`,
  );
  return html`<h1>${m.payments.title}</h1>
<form method="get" action="/dashboard/payments">
<fieldset><legend>${m.payments.filters}</legend>
<div class="filters">
<div class="field"><label for="status">${m.payments.status}</label><select id="status" name="status"${statusProblem ? html` aria-invalid="true" aria-describedby="status-error"` : ""}><option value="">${m.payments.anyStatus}</option>${options}</select>${statusProblem ? html`<p class="field-error" id="status-error">${m.payments.problems[statusProblem.code]}</p>` : ""}</div>
${field(m, view, "reference", m.payments.reference, "text")}
${field(m, view, "order", m.payments.orderNumber, "text")}
${field(m, view, "from", m.payments.from, "date")}
${field(m, view, "to", m.payments.to, "date")}
${field(m, view, "amount", m.payments.amount, "text")}
</div>
<button class="button primary inline" type="submit">${m.payments.apply}</button>
<a class="button secondary inline" href="/dashboard/payments">${m.payments.clear}</a>
</fieldset>
</form>
${
  view.sessions.length === 0
    ? html`<p role="status">${m.payments.empty}</p>`
    : html`<div class="table-wrap"><table>
<caption>${m.payments.title}</caption>
<thead><tr><th scope="col">${m.payments.created}</th><th scope="col">${m.payments.reference}</th><th scope="col">${m.payments.orderNumber}</th><th scope="col" class="num">${m.payments.amount}</th><th scope="col">${m.payments.status}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
${view.nextHref ? html`<p><a class="button secondary inline" href="${view.nextHref}" rel="next">${m.payments.next}</a></p>` : ""}`;
}
