import { type Delivery, DeliveryStatus, type Endpoint } from "@gateway/proto";
import { html, type SafeHtml } from "../../checkout/html.js";
import type { DashboardMessages } from "../i18n/messages.js";
import {
  DELIVERY_STATUSES,
  type DeliveryLogForm,
  type DeliveryLogProblem,
  LOGGED_EVENTS,
} from "../webhooks/delivery-log-filter.js";
import { utcHtml, utcText } from "./format.js";

/** What an endpoint can subscribe to, in the order the form lists them. */
const SUBSCRIBABLE = [
  "session.succeeded",
  "session.failed",
  "session.expired",
  "checkout.session.expired",
  "session.late_payment_returned",
  "refund.*",
] as const;

export interface WebhooksView {
  m: DashboardMessages;
  endpoint: Endpoint;
  csrf: SafeHtml;
  mayManage: boolean;
  flash: SafeHtml;
  log: { form: DeliveryLogForm; problems: DeliveryLogProblem[]; deliveries: Delivery[]; nextHref?: string };
}

function endpointSection(view: WebhooksView): SafeHtml {
  const { m, endpoint, csrf } = view;
  const manage = view.mayManage;
  return html`<h2>${m.webhooks.endpoint}</h2>
${endpoint.disabledAt ? html`<div class="alert" role="alert"><p>${m.webhooks.disabled(utcText(endpoint.disabledAt))}</p></div>` : ""}
${
  manage
    ? html`<form method="post" action="/dashboard/developers/webhooks/endpoint">${csrf}
<div class="field"><label for="url">${m.webhooks.url}</label><input id="url" name="url" type="text" inputmode="url" required value="${endpoint.url}" aria-describedby="url-hint"><p class="hint" id="url-hint">${m.webhooks.urlHint}</p></div>
<button class="button primary inline" type="submit">${m.webhooks.saveUrl}</button></form>`
    : html`<p>${endpoint.url === "" ? m.webhooks.noUrl : html`<code>${endpoint.url}</code>`}</p>`
}
<h2>${m.webhooks.secret}</h2>
${endpoint.previousSecretExpiresAt ? html`<p>${m.webhooks.previousUntil(utcText(endpoint.previousSecretExpiresAt))}</p>` : ""}
${
  manage
    ? html`<form method="post" action="/dashboard/developers/webhooks/secret">${csrf}<button class="button secondary inline" type="submit">${m.webhooks.revealSecret}</button></form>
<form method="post" action="/dashboard/developers/webhooks/rotate">${csrf}
<label for="overlap">${m.webhooks.rotateOverlap}</label>
<select id="overlap" name="overlap_seconds"><option value="0">${m.keys.overlapNow}</option><option value="3600">${m.keys.overlapHour}</option><option value="86400" selected>${m.keys.overlapDay}</option></select>
<button class="button secondary inline" type="submit">${m.webhooks.rotate}</button></form>`
    : ""
}
<h2>${m.webhooks.subscriptions}</h2>
<p>${m.webhooks.subscriptionsHint}</p>
<form method="post" action="/dashboard/developers/webhooks/subscriptions">${csrf}
<fieldset><legend>${m.webhooks.subscriptions}</legend>
${SUBSCRIBABLE.map(
  (event) =>
    html`<div><label><input type="checkbox" name="event" value="${event}"${endpoint.enabledEvents.includes(event) ? html` checked` : ""}${manage ? "" : html` disabled`}> <code>${event === "refund.*" ? m.webhooks.allRefunds : event}</code></label></div>`,
)}
</fieldset>
${manage ? html`<button class="button primary inline" type="submit">${m.webhooks.saveSubscriptions}</button>` : ""}
</form>
${manage && endpoint.url !== "" ? html`<form method="post" action="/dashboard/developers/webhooks/test-event">${csrf}<button class="button secondary inline" type="submit">${m.webhooks.sendTest}</button></form>` : ""}`;
}

function logSection(view: WebhooksView): SafeHtml {
  const { m, log } = view;
  const invalid = (field: string) => log.problems.some((p) => p.field === field);
  const select = (name: "event" | "status", label: string, any: string, values: readonly string[]) =>
    html`<div class="field"><label for="${`log-${name}`}">${label}</label><select id="${`log-${name}`}" name="${name}"${invalid(name) ? html` aria-invalid="true"` : ""}><option value="">${any}</option>${values.map((v) => html`<option value="${v}"${log.form[name] === v ? html` selected` : ""}>${v}</option>`)}</select></div>`;
  const text = (name: "session" | "from" | "to", label: string, type: "text" | "date") =>
    html`<div class="field"><label for="${`log-${name}`}">${label}</label><input id="${`log-${name}`}" name="${name}" type="${type}" value="${log.form[name]}"${invalid(name) ? html` aria-invalid="true"` : ""}></div>`;
  const rows = log.deliveries.map(
    (d) =>
      html`<tr><td>${utcHtml(d.createdAt)}</td><th scope="row"><a href="${`/dashboard/developers/webhooks/deliveries/${d.id}`}"><code>${d.event}</code></a></th><td>${DeliveryStatus[d.status]}</td><td>${d.httpStatusCode ?? ""}</td><td>${d.attemptNumber}</td><td><code>${d.sessionId}</code></td></tr>`,
  );
  return html`<h2>${m.webhooks.log}</h2>
<form method="get" action="/dashboard/developers/webhooks">
<fieldset><legend>${m.payments.filters}</legend><div class="filters">
${select("event", m.webhooks.event, m.webhooks.anyEvent, LOGGED_EVENTS)}
${select("status", m.webhooks.status, m.webhooks.anyStatus, DELIVERY_STATUSES)}
${text("session", m.webhooks.session, "text")}
${text("from", m.payments.from, "date")}
${text("to", m.payments.to, "date")}
</div>
<button class="button primary inline" type="submit">${m.payments.apply}</button>
<a class="button secondary inline" href="/dashboard/developers/webhooks">${m.payments.clear}</a>
</fieldset></form>
${log.problems.length > 0 ? html`<div class="alert" role="alert"><p>${m.payments.problems.invalid_date}</p></div>` : ""}
${
  log.deliveries.length === 0
    ? html`<p>${m.webhooks.none}</p>`
    : html`<div class="table-wrap"><table><caption>${m.webhooks.log}</caption>
<thead><tr><th scope="col">${m.payments.created}</th><th scope="col">${m.webhooks.event}</th><th scope="col">${m.webhooks.status}</th><th scope="col">${m.webhooks.http}</th><th scope="col">${m.webhooks.attempt}</th><th scope="col">${m.webhooks.session}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${log.nextHref ? html`<p><a class="button secondary inline" rel="next" href="${log.nextHref}">${m.payments.next}</a></p>` : ""}
${
  view.mayManage
    ? html`<form method="post" action="/dashboard/developers/webhooks/resend">${view.csrf}
<input type="hidden" name="event" value="${log.form.event}"><input type="hidden" name="status" value="${log.form.status}"><input type="hidden" name="from" value="${log.form.from}"><input type="hidden" name="to" value="${log.form.to}">
<p class="hint">${m.webhooks.resendAllHint}</p>
<button class="button secondary inline" type="submit">${m.webhooks.resendAll}</button></form>`
    : ""
}`;
}

/** The webhooks page: the mode's endpoint, secret, subscriptions and test event, then the delivery log. */
export function renderWebhooksPage(view: WebhooksView): SafeHtml {
  return html`<h1>${view.m.webhooks.title}</h1>
${view.flash}
${endpointSection(view)}
${logSection(view)}`;
}
