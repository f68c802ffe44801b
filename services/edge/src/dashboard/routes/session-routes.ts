import type { FastifyInstance } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { pageOf, SESSION_COOKIE } from "../dashboard-page.js";

/** Sign-out and the test/live switch of a signed-in user. */
export function registerSessionRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { respond, secureCookies } = deps;

  scope.post("/sign-out", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    await audit(deps, page, "user.signed_out");
    await deps.clients.dashboardUsers.signOut({ sessionToken: page.viewer!.sessionToken });
    page.clearCookie(SESSION_COOKIE);
    return respond.redirect(reply, page, "/dashboard/sign-in?out=1");
  });

  scope.post("/mode", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const mode = formOf(request.body).get("mode");
    if (mode !== "test" && mode !== "live")
      return respond.notice(reply, page, 400, {
        title: page.m.errors.badRequestTitle,
        body: page.m.errors.badRequest,
        tone: "alert",
      });
    if (mode === "live" && !page.viewer!.liveAllowed) return respond.forbidden(reply, page);
    page.chooseMode(mode);
    await audit(deps, page, "dashboard.mode_switched", mode);
    return respond.redirect(reply, page, "/dashboard/payments");
  });
}
