import { fromConnectError } from "@gateway/platform";
import type { FastifyInstance, FastifyReply } from "fastify";
import { CsrfTokens } from "../../checkout/csrf.js";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf, SESSION_COOKIE } from "../dashboard-page.js";

/** The pre-session CSRF nonce (sign-in and invitation forms), on /dashboard only. */
export const NONCE_COOKIE = "gw_dash_nonce";
const SIGN_IN_PURPOSE = "dashboard-sign-in";

/** The nonce of this browser, or a new one set on this answer. */
export function ensureNonce(page: DashboardPage): string {
  const existing = page.cookie(NONCE_COOKIE);
  if (CsrfTokens.isNonce(existing)) return existing;
  const nonce = CsrfTokens.newNonce();
  page.setCookie(NONCE_COOKIE, nonce);
  return nonce;
}

type SignInNote = "failed" | "expired" | "signedOut" | "invited" | { throttledSeconds: number } | undefined;

/**
 * Sign-in and sign-out. A failed sign-in says the same thing for an unknown email and a wrong
 * password; accounts throttles per email and per address and the page says when to retry.
 */
export function registerSignInRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { respond, secureCookies } = deps;

  const signInPage = (
    reply: FastifyReply,
    page: DashboardPage,
    status: number,
    note: SignInNote,
    email = "",
  ) => {
    const { m } = page;
    const token = deps.preSessionCsrf.tokenFor(SIGN_IN_PURPOSE, ensureNonce(page));
    let message: SafeHtml = html``;
    if (note === "failed") message = html`<div class="alert" role="alert"><p>${m.signIn.failed}</p></div>`;
    else if (note === "expired")
      message = html`<div class="status-box" role="status"><p>${m.signIn.expired}</p></div>`;
    else if (note === "signedOut")
      message = html`<div class="status-box" role="status"><p>${m.signIn.signedOut}</p></div>`;
    else if (note === "invited")
      message = html`<div class="status-box success" role="status"><p>${m.invitation.accepted}</p></div>`;
    else if (typeof note === "object")
      message = html`<div class="alert" role="alert"><p>${m.signIn.throttled(note.throttledSeconds)}</p></div>`;
    return respond.page(reply, page, {
      status,
      title: m.signIn.title,
      main: html`<h1>${m.signIn.title}</h1>
${message}
<form method="post" action="/dashboard/sign-in">
<input type="hidden" name="csrf" value="${token}">
<div class="field"><label for="email">${m.signIn.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
<div class="field"><label for="password">${m.signIn.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button class="button primary" type="submit">${m.signIn.submit}</button>
</form>`,
    });
  };

  scope.get("/sign-in", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const query = request.query as Record<string, unknown>;
    const note: SignInNote =
      query.expired === "1"
        ? "expired"
        : query.out === "1"
          ? "signedOut"
          : query.invited === "1"
            ? "invited"
            : undefined;
    return signInPage(reply, page, 200, note);
  });

  scope.post("/sign-in", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const form = formOf(request.body);
    if (
      !deps.preSessionCsrf.verify(SIGN_IN_PURPOSE, page.cookie(NONCE_COOKIE), form.get("csrf") ?? undefined)
    )
      return csrfRefused(deps, reply, page);
    const email = (form.get("email") ?? "").trim().slice(0, 320);
    const password = form.get("password") ?? "";
    try {
      const { sessionToken, session } = await deps.clients.dashboardUsers.signIn({
        email,
        password,
        clientAddress: request.ip,
      });
      page.setCookie(SESSION_COOKIE, sessionToken);
      if (session?.user)
        await audit(deps, page, "user.signed_in", "", { user: session.user, livemode: false });
      return respond.redirect(reply, page, "/dashboard/payments");
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason === "UNAUTHORIZED" || failure.reason === "VALIDATION_ERROR")
        return signInPage(reply, page, 401, "failed", email);
      if (failure.reason === "RATE_LIMIT_EXCEEDED") {
        const seconds = Number(failure.metadata.retry_after_seconds ?? "60");
        reply.header("retry-after", String(seconds));
        return signInPage(reply, page, 429, { throttledSeconds: seconds }, email);
      }
      throw failure;
    }
  });
}

/** 403: a form without its CSRF token, or with another session's, changes nothing. */
export function csrfRefused(
  deps: DashboardRouteDeps,
  reply: FastifyReply,
  page: DashboardPage,
): FastifyReply {
  const { m } = page;
  return deps.respond.notice(reply, page, 403, {
    title: m.errors.csrfTitle,
    body: m.errors.csrf,
    tone: "alert",
    action: { label: m.errors.backToDashboard, href: "/dashboard/payments" },
  });
}
