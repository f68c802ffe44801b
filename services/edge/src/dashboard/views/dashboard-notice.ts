import { html, type SafeHtml } from "../../checkout/html.js";

export interface DashboardNotice {
  title: string;
  body: string;
  tone?: "info" | "success" | "alert";
  action?: { label: string; href: string };
  reference?: { label: string; value: string };
}

/** A page that is one message: an error, a refusal, a confirmation. */
export function renderNoticeMain(notice: DashboardNotice): SafeHtml {
  const box =
    notice.tone === "alert"
      ? html`<div class="alert" role="alert"><p>${notice.body}</p></div>`
      : html`<div class="status-box${notice.tone === "success" ? " success" : ""}" role="status"><p>${notice.body}</p></div>`;
  return html`<h1>${notice.title}</h1>
${box}
${notice.action ? html`<p><a class="button secondary inline" href="${notice.action.href}">${notice.action.label}</a></p>` : ""}
${notice.reference ? html`<p class="reference">${notice.reference.label}: <code>${notice.reference.value}</code></p>` : ""}`;
}

/** A message at the top of a page after an action (a flash): announced politely, or at once for a problem. */
export function renderFlash(flash: { text: string; tone: "success" | "alert" } | undefined): SafeHtml {
  if (!flash) return html``;
  return flash.tone === "alert"
    ? html`<div class="alert" role="alert"><p>${flash.text}</p></div>`
    : html`<div class="status-box success" role="status"><p>${flash.text}</p></div>`;
}
