import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type { ApiKey } from "@gateway/proto";
import { html, type SafeHtml } from "../../checkout/html.js";
import type { DashboardMessages } from "../i18n/messages.js";
import { utcHtml, utcText } from "./format.js";

export interface ApiKeysView {
  m: DashboardMessages;
  modeName: string;
  keys: ApiKey[];
  now: Date;
  csrf: SafeHtml;
  mayManage: boolean;
  flash: SafeHtml;
}

function stateOf(m: DashboardMessages, key: ApiKey, now: Date): { text: string; usable: boolean } {
  if (key.revokedAt) return { text: m.keys.revoked, usable: false };
  if (key.expiresAt) {
    const at = timestampDate(key.expiresAt);
    if (at.getTime() <= now.getTime()) return { text: m.keys.expired, usable: false };
    return { text: m.keys.expiresSoon(utcText(at)), usable: true };
  }
  return { text: m.keys.active, usable: true };
}

const when = (m: DashboardMessages, at: Timestamp | undefined) => (at ? utcText(at) : m.keys.never);

/** One mode's keys: masked, with their state and last use; forms to show, roll and revoke them. */
export function renderApiKeys(view: ApiKeysView): SafeHtml {
  const { m } = view;
  const rows = view.keys.map((key) => {
    const state = stateOf(m, key, view.now);
    const actions =
      view.mayManage && state.usable
        ? html`${
            !key.livemode && key.retrievable
              ? html`<form method="post" action="${`/dashboard/developers/api-keys/${key.id}/reveal`}">${view.csrf}<button class="button secondary inline" type="submit">${m.keys.reveal}</button></form>`
              : ""
          }
<form method="post" action="${`/dashboard/developers/api-keys/${key.id}/roll`}">${view.csrf}
<label for="${`overlap-${key.id}`}">${m.keys.overlap}</label>
<select id="${`overlap-${key.id}`}" name="overlap_seconds"><option value="0">${m.keys.overlapNow}</option><option value="3600" selected>${m.keys.overlapHour}</option><option value="86400">${m.keys.overlapDay}</option></select>
<button class="button secondary inline" type="submit">${m.keys.roll}</button></form>
<a class="button secondary inline" href="${`/dashboard/developers/api-keys/${key.id}/revoke`}">${m.keys.revoke}</a>`
        : "";
    return html`<tr><th scope="row"><code>${key.prefix}…</code></th><td>${state.text}</td><td>${utcHtml(key.createdAt)}</td><td>${when(m, key.lastUsedAt)}</td><td>${actions}</td></tr>`;
  });
  return html`<h1>${m.keys.title}</h1>
${view.flash}
<p>${m.keys.intro(view.modeName)}</p>
${
  view.keys.length === 0
    ? html`<p>${m.keys.none}</p>`
    : html`<div class="table-wrap"><table><caption>${m.keys.title}</caption>
<thead><tr><th scope="col">${m.keys.key}</th><th scope="col">${m.keys.state}</th><th scope="col">${m.keys.created}</th><th scope="col">${m.keys.lastUsed}</th><th scope="col"><span class="visually-hidden">${m.keys.roll}</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${view.mayManage ? html`<form method="post" action="/dashboard/developers/api-keys">${view.csrf}<button class="button primary inline" type="submit">${m.keys.create}</button></form>` : ""}`;
}

/** The key itself, on a page of its own (no-store, no referrer), with what to do with it. */
export function renderSecretKey(
  m: DashboardMessages,
  o: { title: string; secret: string; hint: string; backHref?: string; backLabel?: string },
): SafeHtml {
  return html`<h1>${o.title}</h1>
<div class="status-box" role="status"><p>${o.hint}</p></div>
<p><code class="secret" data-secret>${o.secret}</code></p>
<p><a class="button secondary inline" href="${o.backHref ?? "/dashboard/developers/api-keys"}">${o.backLabel ?? m.keys.backToKeys}</a></p>`;
}
