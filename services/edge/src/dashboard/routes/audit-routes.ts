import type { FastifyInstance } from "fastify";
import { html } from "../../checkout/html.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { pageOf } from "../dashboard-page.js";
import { may } from "../permissions.js";
import { utcHtml } from "../views/format.js";

const ENTRY_ID = /^aud_[0-9A-Za-z]{1,64}$/;
const PAGE_SIZE = 50;

/** The merchant's audit log, for its owners: who did what, on what, when and from where. */
export function registerAuditRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const auditLog = deps.clients.auditLog;
  if (!auditLog) return;
  scope.get("/audit-log", async (request, reply) => {
    const page = pageOf(request, deps.secureCookies);
    const { m } = page;
    const viewer = page.viewer!;
    if (!may(viewer.user.role, "read_audit")) return deps.respond.forbidden(reply, page);
    const after = (request.query as Record<string, unknown>).after;
    const { entries, pageInfo } = await auditLog.listAuditEntries({
      merchantId: viewer.user.merchantId,
      page: {
        limit: PAGE_SIZE,
        startingAfter: typeof after === "string" && ENTRY_ID.test(after) ? after : "",
      },
    });
    const rows = entries.map(
      (e) =>
        html`<tr><td>${utcHtml(e.createdAt)}</td><th scope="row">${e.actorEmail}</th><td><code>${e.action}</code></td><td><code>${e.target}</code></td><td>${e.livemode ? m.mode.live : m.mode.test}</td><td><bdi dir="ltr">${e.ipAddress}</bdi></td></tr>`,
    );
    return deps.respond.page(reply, page, {
      title: m.audit.title,
      section: "audit",
      main: html`<h1>${m.audit.title}</h1>
<p>${m.audit.intro}</p>
${
  entries.length === 0
    ? html`<p>${m.audit.none}</p>`
    : html`<div class="table-wrap"><table><caption>${m.audit.title}</caption>
<thead><tr><th scope="col">${m.audit.when}</th><th scope="col">${m.audit.who}</th><th scope="col">${m.audit.action}</th><th scope="col">${m.audit.target}</th><th scope="col">${m.audit.mode}</th><th scope="col">${m.audit.from}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${pageInfo?.hasMore ? html`<p><a class="button secondary inline" rel="next" href="${`/dashboard/audit-log?after=${pageInfo.nextCursor}`}">${m.audit.next}</a></p>` : ""}`,
    });
  });
}
