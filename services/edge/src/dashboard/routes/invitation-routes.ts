import { fromConnectError } from "@gateway/platform";
import type { Invitation } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html } from "../../checkout/html.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { csrfRefused, ensureNonce, NONCE_COOKIE } from "./sign-in-routes.js";

/** An invitation token as accounts mints it (`inv_` + 43 base62); anything else is not looked up. */
const INVITATION_TOKEN = /^inv_[0-9A-Za-z]{43}$/;

/**
 * The invitation link: the invited person sets a password, then signs in. The token in the
 * path is the credential (one use, expiring); it never reaches a log line or another page.
 */
export function registerInvitationRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { respond, secureCookies } = deps;
  const purpose = (token: string) => `dashboard-invitation\n${token}`;

  const invalid = (reply: FastifyReply, page: DashboardPage) =>
    respond.notice(reply, page, 404, {
      title: page.m.invitation.title,
      body: page.m.invitation.invalid,
      tone: "alert",
    });

  const lookUp = async (token: string): Promise<Invitation | undefined> => {
    if (!INVITATION_TOKEN.test(token)) return undefined;
    try {
      return (await deps.clients.dashboardUsers.getInvitation({ invitationToken: token })).invitation;
    } catch (err) {
      if (fromConnectError(err).reason === "NOT_FOUND") return undefined;
      throw err;
    }
  };

  const form = (
    reply: FastifyReply,
    page: DashboardPage,
    token: string,
    invitation: Invitation,
    weak: boolean,
  ) => {
    const { m } = page;
    const role = m.roles[invitation.role as keyof typeof m.roles] ?? invitation.role;
    return respond.page(reply, page, {
      status: weak ? 422 : 200,
      title: m.invitation.title,
      main: html`<h1>${m.invitation.title}</h1>
<p>${m.invitation.intro(invitation.email, role)}</p>
${weak ? html`<div class="alert" role="alert"><p>${m.account.weakPassword}</p></div>` : ""}
<form method="post" action="${`/dashboard/invitations/${token}`}">
<input type="hidden" name="csrf" value="${deps.preSessionCsrf.tokenFor(purpose(token), ensureNonce(page))}">
<div class="field"><label for="password">${m.invitation.password}</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required aria-describedby="password-hint"${weak ? html` aria-invalid="true"` : ""}><p class="hint" id="password-hint">${m.invitation.passwordHint}</p></div>
<button class="button primary" type="submit">${m.invitation.submit}</button>
</form>`,
    });
  };

  scope.get<{ Params: { token: string } }>("/invitations/:token", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const invitation = await lookUp(request.params.token);
    if (!invitation) return invalid(reply, page);
    return form(reply, page, request.params.token, invitation, false);
  });

  scope.post<{ Params: { token: string } }>("/invitations/:token", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const { token } = request.params;
    const body = formOf(request.body);
    if (!deps.preSessionCsrf.verify(purpose(token), page.cookie(NONCE_COOKIE), body.get("csrf") ?? undefined))
      return csrfRefused(deps, reply, page);
    const invitation = await lookUp(token);
    if (!invitation) return invalid(reply, page);
    try {
      await deps.clients.dashboardUsers.acceptInvitation({
        invitationToken: token,
        password: body.get("password") ?? "",
      });
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason === "VALIDATION_ERROR") return form(reply, page, token, invitation, true);
      if (failure.reason === "NOT_FOUND") return invalid(reply, page);
      throw failure;
    }
    return respond.redirect(reply, page, "/dashboard/sign-in?invited=1");
  });
}
