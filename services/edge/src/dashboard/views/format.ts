import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { SessionStatus } from "@gateway/proto";
import { html, type SafeHtml } from "../../checkout/html.js";
import type { DashboardMessages } from "../i18n/messages.js";

/** An instant as UTC text, the same in every language (no locale guessing about time zones). */
export function utcText(at: Timestamp | Date | undefined): string {
  if (at === undefined) return "";
  const date = at instanceof Date ? at : timestampDate(at);
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** utcText kept left-to-right, also inside Arabic text. */
export function utcHtml(at: Timestamp | Date | undefined): SafeHtml {
  return html`<bdi dir="ltr">${utcText(at)}</bdi>`;
}

/** An exact decimal amount and its currency, kept left-to-right inside Arabic text. */
export function money(amount: string, currency: string): SafeHtml {
  return html`<bdi dir="ltr">${amount}&nbsp;${currency}</bdi>`;
}

export function statusText(m: DashboardMessages, status: SessionStatus): string {
  const name = SessionStatus[status] as keyof DashboardMessages["statuses"];
  return m.statuses[name] ?? name;
}
