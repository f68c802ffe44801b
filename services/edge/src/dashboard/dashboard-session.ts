import { create } from "@bufbuild/protobuf";
import { fromConnectError } from "@gateway/platform";
import { AccountScopeSchema } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { formOf } from "../checkout/form-body.js";
import type { DashboardRouteDeps } from "./dashboard-deps.js";
import { pageOf, SESSION_COOKIE } from "./dashboard-page.js";
import { may } from "./permissions.js";
import { csrfRefused } from "./routes/sign-in-routes.js";

/** A dashboard session token as accounts mints it; anything else is not looked up. */
const SESSION_TOKEN = /^dss_[0-9A-Za-z]{43}$/;

/**
 * Every page of this scope needs a signed-in user: without a live session the browser goes to
 * sign-in (nothing is shown, nothing changed). The user's merchant and the chosen mode make the
 * scope of every call the pages make; live mode holds only for a verified merchant. Every POST
 * must carry this session's CSRF token.
 */
export function requireSignedIn(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { clients, respond, secureCookies } = deps;
  scope.addHook("onRequest", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const token = page.cookie(SESSION_COOKIE);
    if (token === undefined || !SESSION_TOKEN.test(token))
      return respond.redirect(reply, page, "/dashboard/sign-in");
    let session: Awaited<ReturnType<typeof clients.dashboardUsers.authenticateSession>>["session"];
    try {
      ({ session } = await clients.dashboardUsers.authenticateSession({ sessionToken: token }));
    } catch (err) {
      if (fromConnectError(err).reason !== "UNAUTHORIZED") throw err;
      page.clearCookie(SESSION_COOKIE);
      return respond.redirect(reply, page, "/dashboard/sign-in?expired=1");
    }
    const user = session?.user;
    if (!user) throw new Error("AuthenticateSession answered without a user");
    const { merchant } = await clients.accounts.getMerchant({ merchantId: user.merchantId });
    const liveAllowed = merchant?.verified === true;
    page.viewer = {
      user,
      sessionToken: token,
      scope: create(AccountScopeSchema, {
        merchantId: user.merchantId,
        livemode: liveAllowed && page.chosenMode() === "live",
      }),
      liveAllowed,
      csrfToken: deps.csrf.tokenFor(token),
      sections: deps.sections.filter((section) => section !== "audit" || may(user.role, "read_audit")),
    };
  });
  scope.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST") return;
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer;
    if (!viewer || !deps.csrf.verify(viewer.sessionToken, formOf(request.body).get("csrf") ?? undefined))
      return csrfRefused(deps, reply, page);
  });
}
