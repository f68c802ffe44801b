import type { FastifyInstance } from "fastify";
import { html } from "../../checkout/html.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { pageOf } from "../dashboard-page.js";
import { utcText } from "../views/format.js";

/** The merchant's dashboard users and their roles (another merchant's are never listed). */
export function registerUsersRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  scope.get("/users", async (request, reply) => {
    const page = pageOf(request, deps.secureCookies);
    const { m } = page;
    const { users } = await deps.clients.dashboardUsers.listUsers({
      merchantId: page.viewer!.user.merchantId,
    });
    return deps.respond.page(reply, page, {
      title: m.users.title,
      section: "users",
      main: html`<h1>${m.users.title}</h1>
<div class="table-wrap"><table><caption>${m.users.title}</caption>
<thead><tr><th scope="col">${m.users.email}</th><th scope="col">${m.users.role}</th><th scope="col">${m.users.since}</th></tr></thead>
<tbody>${users.map((u) => html`<tr><th scope="row">${u.email}</th><td>${m.roles[u.role as keyof typeof m.roles] ?? u.role}</td><td>${utcText(u.createdAt)}</td></tr>`)}</tbody>
</table></div>`,
    });
  });
}
