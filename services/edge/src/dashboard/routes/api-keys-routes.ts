import { fromConnectError } from "@gateway/platform";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { may } from "../permissions.js";
import { renderApiKeys, renderSecretKey } from "../views/api-keys-page.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";

const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;
type Params = { Params: { id: string } };

/**
 * API keys of the mode shown: test keys can be shown whenever asked (they are kept sealed),
 * a live key only once, at creation or roll. Rolling keeps the old key for the chosen overlap.
 * Only owners and developers see secrets or change keys.
 */
export function registerApiKeysRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { clients, respond, secureCookies } = deps;
  const apiKeys = clients.apiKeys;
  if (!apiKeys) return;

  const modeName = (page: DashboardPage) =>
    page.viewer!.scope.livemode ? page.m.mode.live : page.m.mode.test;

  const secretPage = (
    reply: FastifyReply,
    page: DashboardPage,
    secret: string,
    live: boolean,
    title: string,
  ) =>
    respond.page(reply, page, {
      title,
      section: "apiKeys",
      main: renderSecretKey(page.m, {
        title,
        secret,
        hint: live ? page.m.keys.shownOnce : page.m.keys.revealHint,
      }),
    });

  /** The signed-in user's own key, or a 404 page (another merchant's key, or none). */
  const guard = (reply: FastifyReply, page: DashboardPage, id: string): boolean => {
    if (!may(page.viewer!.user.role, "manage_keys")) {
      respond.forbidden(reply, page);
      return false;
    }
    if (!KEY_ID.test(id)) {
      respond.notFound(reply, page);
      return false;
    }
    return true;
  };

  scope.get("/developers/api-keys", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    const { apiKeys: keys } = await apiKeys.listApiKeys({
      merchantId: viewer.user.merchantId,
      livemode: viewer.scope.livemode,
    });
    const done = (request.query as Record<string, unknown>).done;
    return respond.page(reply, page, {
      title: page.m.keys.title,
      section: "apiKeys",
      main: renderApiKeys({
        m: page.m,
        modeName: modeName(page),
        keys,
        now: deps.clock.now(),
        csrf: csrfInput(page),
        mayManage: may(viewer.user.role, "manage_keys"),
        flash: done === "revoked" ? renderFlash({ text: page.m.keys.revokedDone, tone: "success" }) : html``,
      }),
    });
  });

  scope.post("/developers/api-keys", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    if (!may(viewer.user.role, "manage_keys")) return respond.forbidden(reply, page);
    const { secret, apiKey } = await clients.accounts.createApiKey({
      merchantId: viewer.user.merchantId,
      livemode: viewer.scope.livemode,
    });
    await audit(deps, page, "api_key.created", apiKey?.id ?? "");
    return secretPage(reply, page, secret, viewer.scope.livemode, page.m.keys.createdTitle);
  });

  scope.post<Params>("/developers/api-keys/:id/reveal", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!guard(reply, page, request.params.id)) return reply;
    try {
      const { secret } = await apiKeys.revealTestKey({
        merchantId: page.viewer!.user.merchantId,
        keyId: request.params.id,
      });
      await audit(deps, page, "api_key.revealed", request.params.id);
      return secretPage(reply, page, secret, false, page.m.keys.revealTitle);
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason !== "INVALID_STATE") throw failure;
      return respond.notice(reply, page, 409, {
        title: page.m.keys.title,
        body: page.m.keys.notRetrievable,
        tone: "alert",
        action: { label: page.m.keys.backToKeys, href: "/dashboard/developers/api-keys" },
      });
    }
  });

  scope.post<Params>("/developers/api-keys/:id/roll", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!guard(reply, page, request.params.id)) return reply;
    const overlapSeconds = Number(formOf(request.body).get("overlap_seconds") ?? "");
    const rolled = await apiKeys.rollApiKey({
      merchantId: page.viewer!.user.merchantId,
      keyId: request.params.id,
      overlapSeconds: Number.isInteger(overlapSeconds) ? overlapSeconds : -1,
    });
    await deps.onKeyChanged(request.params.id);
    await audit(deps, page, "api_key.rolled", request.params.id);
    return secretPage(reply, page, rolled.secret, rolled.apiKey?.livemode === true, page.m.keys.createdTitle);
  });

  scope.get<Params>("/developers/api-keys/:id/revoke", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!guard(reply, page, request.params.id)) return reply;
    const { m } = page;
    return respond.page(reply, page, {
      title: m.keys.revoke,
      section: "apiKeys",
      main: html`<h1>${m.keys.revoke}</h1>
<p>${m.keys.revokeConfirm}</p>
<form method="post" action="${`/dashboard/developers/api-keys/${request.params.id}/revoke`}">${csrfInput(page)}
<button class="button danger inline" type="submit">${m.keys.revoke}</button>
<a class="button secondary inline" href="/dashboard/developers/api-keys">${m.keys.backToKeys}</a>
</form>`,
    });
  });

  scope.post<Params>("/developers/api-keys/:id/revoke", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    if (!guard(reply, page, request.params.id)) return reply;
    await apiKeys.revokeMerchantApiKey({
      merchantId: page.viewer!.user.merchantId,
      keyId: request.params.id,
    });
    await deps.onKeyChanged(request.params.id);
    await audit(deps, page, "api_key.revoked", request.params.id);
    return respond.redirect(reply, page, "/dashboard/developers/api-keys?done=revoked");
  });
}
