import { type Delivery, DeliveryStatus, type GetDeliveryDetailResponse } from "@gateway/proto";
import { html, type SafeHtml } from "../../checkout/html.js";
import type { DashboardMessages } from "../i18n/messages.js";
import { utcHtml } from "./format.js";

/** One delivery: what was sent (headers and body), what came back, every attempt, and Resend. */
export function renderDeliveryDetail(
  m: DashboardMessages,
  detail: GetDeliveryDetailResponse,
  o: { csrf: SafeHtml; mayResend: boolean; flash: SafeHtml },
): SafeHtml {
  const d = detail.delivery as Delivery;
  const headers = Object.entries(detail.requestHeaders).sort(([a], [b]) => a.localeCompare(b));
  return html`<h1>${m.webhooks.detail(d.id)}</h1>
${o.flash}
<dl class="facts">
<div><dt>${m.webhooks.event}</dt><dd><code>${d.event}</code></dd></div>
<div><dt>${m.webhooks.status}</dt><dd>${DeliveryStatus[d.status]}${d.errorMessage ? html` (${d.errorMessage})` : ""}</dd></div>
<div><dt>${m.webhooks.url}</dt><dd><code>${d.url}</code></dd></div>
<div><dt>${m.webhooks.attempt}</dt><dd>${d.attemptNumber}</dd></div>
${d.sessionId ? html`<div><dt>${m.webhooks.session}</dt><dd><a href="${`/dashboard/payments/${d.sessionId}`}"><code>${d.sessionId}</code></a></dd></div>` : ""}
${d.nextRetryAt ? html`<div><dt>${m.webhooks.nextRetry}</dt><dd>${utcHtml(d.nextRetryAt)}</dd></div>` : ""}
</dl>
${o.mayResend ? html`<form method="post" action="${`/dashboard/developers/webhooks/deliveries/${d.id}/resend`}">${o.csrf}<button class="button primary inline" type="submit">${m.webhooks.resend}</button></form>` : ""}
<h2>${m.webhooks.request}</h2>
${
  headers.length === 0
    ? ""
    : html`<div class="table-wrap"><table><caption>${m.webhooks.headers}</caption><tbody>${headers.map(([name, value]) => html`<tr><th scope="row"><code>${name}</code></th><td><code>${value}</code></td></tr>`)}</tbody></table></div>`
}
<h3>${m.webhooks.body}</h3>
<pre class="payload"><code>${detail.requestBody}</code></pre>
<h2>${m.webhooks.response}</h2>
<p>${m.webhooks.http}: ${d.httpStatusCode ?? "—"}</p>
<h3>${m.webhooks.excerpt}</h3>
${detail.responseExcerpt === "" ? html`<p>${m.webhooks.noExcerpt}</p>` : html`<pre class="payload"><code>${detail.responseExcerpt}</code></pre>`}
<h2>${m.webhooks.attempts}</h2>
<div class="table-wrap"><table><caption>${m.webhooks.attempts}</caption>
<thead><tr><th scope="col">${m.webhooks.attempt}</th><th scope="col">${m.webhooks.status}</th><th scope="col">${m.webhooks.http}</th><th scope="col">${m.payments.created}</th></tr></thead>
<tbody>${detail.attempts.map((a) => html`<tr><th scope="row"><a href="${`/dashboard/developers/webhooks/deliveries/${a.id}`}">${a.attemptNumber}</a></th><td>${DeliveryStatus[a.status]}</td><td>${a.httpStatusCode ?? ""}</td><td>${utcHtml(a.createdAt)}</td></tr>`)}</tbody></table></div>`;
}
