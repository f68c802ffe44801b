import { html, type SafeHtml } from "../html.js";
import type { Notice } from "../i18n/messages.js";

export interface NoticeAction {
  label: string | SafeHtml;
  href: string;
  kind?: "primary" | "secondary";
}

export interface NoticeView {
  notice: Notice;
  /** Overrides the notice's body (e.g. a sentence naming the merchant). */
  body?: string | SafeHtml;
  /** How the message box looks; `alert` is announced at once by assistive technology. */
  tone?: "info" | "success" | "warning" | "alert";
  actions?: NoticeAction[];
  /** The request id, for errors the buyer may report. */
  reference?: { label: string; value: string };
}

/** The main content of every page that is one message: a state, an expired link, an error. */
export function renderNoticeMain(view: NoticeView): SafeHtml {
  const tone = view.tone ?? "info";
  // role=alert for problems (announced immediately), role=status (polite live region) otherwise.
  const box =
    tone === "alert"
      ? html`<div class="alert" role="alert"><p>${view.body ?? view.notice.body}</p></div>`
      : html`<div class="status-box${tone === "info" ? "" : ` ${tone}`}" role="status" aria-live="polite"><p>${view.body ?? view.notice.body}</p></div>`;
  const actions = (view.actions ?? []).map(
    (action) => html`<a class="button ${action.kind ?? "primary"}" href="${action.href}">${action.label}</a>`,
  );
  const reference =
    view.reference === undefined
      ? ""
      : html`<p class="reference">${view.reference.label}: <code>${view.reference.value}</code></p>`;
  return html`<h1>${view.notice.title}</h1>
${box}
${actions.length > 0 ? html`<div class="actions">${actions}</div>` : ""}
${reference}`;
}
