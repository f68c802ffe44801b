import { fromConnectError } from "@gateway/platform";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf, SESSION_COOKIE } from "../dashboard-page.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";

/**
 * The signed-in user's own account: change the password (every other session of the user ends,
 * this browser gets a fresh one) and sign out everywhere.
 */
export function registerAccountRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { respond, secureCookies } = deps;

  const accountPage = (reply: FastifyReply, page: DashboardPage, status = 200, flash?: SafeHtml) => {
    const { m } = page;
    return respond.page(reply, page, {
      status,
      title: m.account.title,
      section: "account",
      main: html`<h1>${m.account.title}</h1>
${flash ?? ""}
<h2>${m.account.changePassword}</h2>
<form method="post" action="/dashboard/account/password">${csrfInput(page)}
<div class="field"><label for="current-password">${m.account.currentPassword}</label><input id="current-password" name="current_password" type="password" autocomplete="current-password" required></div>
<div class="field"><label for="new-password">${m.account.newPassword}</label><input id="new-password" name="new_password" type="password" autocomplete="new-password" minlength="12" required aria-describedby="new-password-hint"><p class="hint" id="new-password-hint">${m.invitation.passwordHint}</p></div>
<button class="button primary inline" type="submit">${m.account.save}</button>
</form>
<h2>${m.account.signOutEverywhere}</h2>
<p>${m.account.signOutEverywhereHint}</p>
<form method="post" action="/dashboard/account/sign-out-everywhere">${csrfInput(page)}
<button class="button secondary inline" type="submit">${m.account.signOutEverywhere}</button>
</form>`,
    });
  };

  scope.get("/account", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const changed = (request.query as Record<string, unknown>).changed === "1";
    return accountPage(
      reply,
      page,
      200,
      changed ? renderFlash({ text: page.m.account.changed, tone: "success" }) : undefined,
    );
  });

  scope.post("/account/password", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const body = formOf(request.body);
    try {
      const { sessionToken } = await deps.clients.dashboardUsers.changePassword({
        sessionToken: page.viewer!.sessionToken,
        currentPassword: body.get("current_password") ?? "",
        newPassword: body.get("new_password") ?? "",
        clientAddress: request.ip,
      });
      page.setCookie(SESSION_COOKIE, sessionToken);
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason === "VALIDATION_ERROR") {
        const wrongCurrent = failure.violations.some((v) => v.field === "current_password");
        const text = wrongCurrent ? page.m.account.wrongPassword : page.m.account.weakPassword;
        return accountPage(reply, page, 422, renderFlash({ text, tone: "alert" }));
      }
      if (failure.reason === "RATE_LIMIT_EXCEEDED")
        return accountPage(
          reply,
          page,
          429,
          renderFlash({
            text: page.m.signIn.throttled(Number(failure.metadata.retry_after_seconds ?? "60")),
            tone: "alert",
          }),
        );
      throw failure;
    }
    await audit(deps, page, "user.password_changed");
    return respond.redirect(reply, page, "/dashboard/account?changed=1");
  });

  scope.post("/account/sign-out-everywhere", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    await audit(deps, page, "user.signed_out_everywhere");
    await deps.clients.dashboardUsers.signOutEverywhere({ sessionToken: page.viewer!.sessionToken });
    page.clearCookie(SESSION_COOKIE);
    return respond.redirect(reply, page, "/dashboard/sign-in?out=1");
  });
}
