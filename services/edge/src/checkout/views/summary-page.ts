import type { Session } from "@gateway/proto";
import { formatDecimal, formatMoney, lineTotal } from "../amount-format.js";
import { html, type SafeHtml } from "../html.js";
import type { Language } from "../i18n/languages.js";
import { FAILURE_CODES, type FailureCodeKey, type Messages } from "../i18n/messages.js";
import { withIsolatedValues } from "./isolated-values.js";

export interface SummaryView {
  language: Language;
  m: Messages;
  session: Session;
  merchantName: string;
  /** Form targets on this edge. */
  payAction: string;
  cancelAction: string;
  csrfToken: string;
  /** Whether Cancel takes the buyer back to the merchant (a cancel_url is set). */
  cancelLeaves: boolean;
  /** Shown after a decline while retries remain. */
  decline?: { failureCode: string; attemptsLeft: number };
  /** The buyer just used Cancel and there was no cancel_url to go to. */
  canceledNote: boolean;
}

function failureReason(m: Messages, code: string): string {
  const key = (FAILURE_CODES as readonly string[]).includes(code) ? (code as FailureCodeKey) : "unknown";
  return m.failureReasons[key];
}

function itemsTable(view: SummaryView): SafeHtml | "" {
  const { m, session, language } = view;
  if (session.items.length === 0) return "";
  // Item prices are in the currency the merchant priced the order in.
  const currency = session.original?.currency || session.currency;
  const rows = session.items.map((item) => {
    const total = lineTotal(item.unitPrice, item.quantity);
    const unitPrice = formatMoney(item.unitPrice, currency, language);
    // On a phone the quantity and unit price columns give way to this line under the name
    // (checkout.css), so the table fits 360 px without scrolling sideways.
    return html`<tr>
<th scope="row">${item.name}${item.description === "" ? "" : html`<span class="item-description">${item.description}</span>`}<span class="item-unit"><bdi>${item.quantity}</bdi> × <bdi>${unitPrice}</bdi></span></th>
<td class="num wide-only">${item.quantity}</td>
<td class="num wide-only"><bdi>${unitPrice}</bdi></td>
<td class="num">${total === undefined ? "" : html`<bdi>${formatMoney(total, currency, language)}</bdi>`}</td>
</tr>`;
  });
  return html`<table>
<caption>${m.items}</caption>
<thead><tr><th scope="col">${m.itemName}</th><th scope="col" class="num wide-only">${m.itemQuantity}</th><th scope="col" class="num wide-only">${m.itemUnitPrice}</th><th scope="col" class="num">${m.itemTotal}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

/** The payable page: what is bought, from whom, for how much; Pay and Cancel as real forms. */
export function renderSummaryMain(view: SummaryView): SafeHtml {
  const { m, session, language } = view;
  const total = formatMoney(session.amount, session.currency, language);
  const original = session.original;
  const converted =
    original !== undefined && original.currency !== "" && original.currency !== session.currency
      ? html`<p class="original">${withIsolatedValues(m.originalAmount, formatMoney(original.amount, original.currency, language), formatDecimal(original.rate, language))}</p>`
      : "";
  const fact = (label: string, value: string) =>
    value === "" ? "" : html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
  const decline =
    view.decline === undefined
      ? ""
      : html`<div class="alert" role="alert">
<h2>${m.declinedTitle}</h2>
<p>${failureReason(m, view.decline.failureCode)}</p>
<p>${m.attemptsLeft(view.decline.attemptsLeft)}</p>
</div>`;
  const csrf = html`<input type="hidden" name="csrf" value="${view.csrfToken}">`;
  return html`<h1>${withIsolatedValues(m.payHeading, view.merchantName)}</h1>
<div class="status" role="status" aria-live="polite">${view.canceledNote ? html`<div class="status-box warning"><p>${m.canceledNote}</p></div>` : ""}</div>
${decline}
<section class="card" aria-labelledby="summary-title">
<h2 id="summary-title">${m.orderSummary}</h2>
<dl class="facts">
${fact(m.merchant, view.merchantName)}
${fact(m.orderNumber, session.orderNumber)}
${fact(m.orderReference, session.orderId)}
${fact(m.description, session.description)}
</dl>
${itemsTable(view)}
<p class="total"><span>${m.totalToPay}</span> <strong><bdi>${total}</bdi></strong></p>
${converted}
</section>
<form method="post" action="${view.payAction}">
${csrf}
<input type="hidden" name="lang" value="${language}">
<button type="submit" class="button primary" aria-describedby="pay-hint">${withIsolatedValues(m.payButton, total)}</button>
<p class="hint" id="pay-hint">${m.payHint}</p>
</form>
<form method="post" action="${view.cancelAction}">
${csrf}
<button type="submit" class="button secondary">${view.cancelLeaves ? m.cancelButton : m.cancelButtonStay}</button>
</form>`;
}
