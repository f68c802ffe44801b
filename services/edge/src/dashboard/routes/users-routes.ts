import { fromConnectError } from "@gateway/platform";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { invitationUrl } from "../../routes/admin-dashboard-routes.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { may } from "../permissions.js";
import { renderSecretKey } from "../views/api-keys-page.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";
import { utcHtml } from "../views/format.js";

const ROLES = ["owner", "developer", "viewer"] as const;

/**
 * The merchant's dashboard users and their roles (another merchant's are never listed), and for
 * owners an invitation form: the one-time link is shown to the inviting owner only, once.
 */
export function registerUsersRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { respond, secureCookies } = deps;

  const usersPage = async (reply: FastifyReply, page: DashboardPage, status = 200, flash?: SafeHtml) => {
    const { m } = page;
    const viewer = page.viewer!;
    const { users } = await deps.clients.dashboardUsers.listUsers({ merchantId: viewer.user.merchantId });
    const invite = may(viewer.user.role, "manage_users")
      ? html`<h2>${m.users.invite}</h2>
<p>${m.users.inviteHint}</p>
<form method="post" action="/dashboard/users/invitations">${csrfInput(page)}
<div class="filters">
<div class="field"><label for="invite-email">${m.users.email}</label><input id="invite-email" name="email" type="email" required></div>
<div class="field"><label for="invite-role">${m.users.role}</label><select id="invite-role" name="role">${ROLES.map((role) => html`<option value="${role}"${role === "viewer" ? html` selected` : ""}>${m.roles[role]}</option>`)}</select></div>
</div>
<button class="button primary inline" type="submit">${m.users.sendInvite}</button></form>`
      : "";
    return respond.page(reply, page, {
      status,
      title: m.users.title,
      section: "users",
      main: html`<h1>${m.users.title}</h1>
${flash ?? ""}
<div class="table-wrap"><table><caption>${m.users.title}</caption>
<thead><tr><th scope="col">${m.users.email}</th><th scope="col">${m.users.role}</th><th scope="col">${m.users.since}</th></tr></thead>
<tbody>${users.map((u) => html`<tr><th scope="row">${u.email}</th><td>${m.roles[u.role as keyof typeof m.roles] ?? u.role}</td><td>${utcHtml(u.createdAt)}</td></tr>`)}</tbody>
</table></div>
${invite}`,
    });
  };

  scope.get("/users", async (request, reply) => usersPage(reply, pageOf(request, secureCookies)));

  scope.post("/users/invitations", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    if (!may(viewer.user.role, "manage_users")) return respond.forbidden(reply, page);
    const body = formOf(request.body);
    let created: Awaited<ReturnType<typeof deps.clients.dashboardUsers.inviteUser>>;
    try {
      created = await deps.clients.dashboardUsers.inviteUser({
        merchantId: viewer.user.merchantId,
        email: (body.get("email") ?? "").trim(),
        role: body.get("role") ?? "",
        invitedBy: viewer.user.id,
      });
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason !== "VALIDATION_ERROR" && failure.reason !== "CONFLICT") throw failure;
      const details = failure.violations.map((v) => v.message).join(" ") || failure.message;
      return usersPage(
        reply,
        page,
        422,
        renderFlash({ text: `${page.m.users.invalid}. ${details}`, tone: "alert" }),
      );
    }
    const email = created.invitation?.email ?? "";
    await audit(deps, page, "user.invited", email);
    return respond.page(reply, page, {
      title: page.m.users.invitedTitle,
      section: "users",
      main: renderSecretKey(page.m, {
        title: page.m.users.invitedTitle,
        secret: invitationUrl(deps.publicUrl, created.invitationToken),
        hint: page.m.users.invitedBody(email),
        backHref: "/dashboard/users",
        backLabel: page.m.users.title,
      }),
    });
  });
}
