import { fromConnectError } from "@gateway/platform";
import type { DashboardUser, MerchantExchangeRate } from "@gateway/proto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { formOf } from "../../checkout/form-body.js";
import { html, type SafeHtml } from "../../checkout/html.js";
import { audit } from "../audit.js";
import type { DashboardRouteDeps } from "../dashboard-deps.js";
import { type DashboardPage, pageOf } from "../dashboard-page.js";
import { may } from "../permissions.js";
import { csrfInput } from "../views/dashboard-layout.js";
import { renderFlash } from "../views/dashboard-notice.js";
import { utcHtml } from "../views/format.js";

const HISTORY_SHOWN = 50;

/**
 * Currency settings: the merchant's own exchange rates (1 unit = rate TND), who set each and
 * when, the history, and a form for owners and developers. Session create uses them at once.
 */
export function registerCurrencyRoutes(scope: FastifyInstance, deps: DashboardRouteDeps): void {
  const { clients, respond, secureCookies } = deps;
  const exchangeRates = clients.exchangeRates;
  if (!exchangeRates) return;

  const settingsPage = async (
    reply: FastifyReply,
    page: DashboardPage,
    o: { status?: number; flash?: SafeHtml; typed?: { currency: string; rate: string } } = {},
  ) => {
    const { m } = page;
    const viewer = page.viewer!;
    const merchantId = viewer.user.merchantId;
    const [{ exchangeRates: current }, { exchangeRates: history }, { users }] = await Promise.all([
      exchangeRates.listExchangeRates({ merchantId }),
      exchangeRates.listExchangeRateHistory({ merchantId, limit: HISTORY_SHOWN }),
      clients.dashboardUsers.listUsers({ merchantId }),
    ]);
    const who = (rate: MerchantExchangeRate) =>
      rate.setByUserId === ""
        ? m.currencies.operator
        : (users.find((u: DashboardUser) => u.id === rate.setByUserId)?.email ?? rate.setByUserId);
    const table = (caption: string, rates: MerchantExchangeRate[]) =>
      html`<div class="table-wrap"><table><caption>${caption}</caption>
<thead><tr><th scope="col">${m.currencies.currency}</th><th scope="col" class="num">${m.currencies.rate}</th><th scope="col">${m.currencies.setAt}</th><th scope="col">${m.currencies.setBy}</th></tr></thead>
<tbody>${rates.map((r) => html`<tr><th scope="row">${r.currency}</th><td class="num"><bdi dir="ltr">${r.rate}</bdi></td><td>${utcHtml(r.setAt)}</td><td>${who(r)}</td></tr>`)}</tbody></table></div>`;
    const form = may(viewer.user.role, "manage_settings")
      ? html`<form method="post" action="/dashboard/settings/currencies">${csrfInput(page)}
<div class="filters">
<div class="field"><label for="currency">${m.currencies.currency}</label><input id="currency" name="currency" type="text" maxlength="3" autocomplete="off" required value="${o.typed?.currency ?? ""}"></div>
<div class="field"><label for="rate">${m.currencies.rate}</label><input id="rate" name="rate" type="text" inputmode="decimal" autocomplete="off" required value="${o.typed?.rate ?? ""}"></div>
</div>
<button class="button primary inline" type="submit">${m.currencies.set}</button>
</form>`
      : "";
    return respond.page(reply, page, {
      status: o.status ?? 200,
      title: m.currencies.title,
      section: "currencies",
      main: html`<h1>${m.currencies.title}</h1>
${o.flash ?? ""}
<p>${m.currencies.intro}</p>
<h2>${m.currencies.current}</h2>
${current.length === 0 ? html`<p>${m.currencies.none}</p>` : table(m.currencies.current, current)}
${form}
${history.length === 0 ? "" : html`<h2>${m.currencies.history}</h2>${table(m.currencies.history, history)}`}`,
    });
  };

  scope.get("/settings/currencies", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const saved = (request.query as Record<string, unknown>).saved;
    return settingsPage(
      reply,
      page,
      typeof saved === "string" && /^[A-Z]{3}$/.test(saved)
        ? { flash: renderFlash({ text: page.m.currencies.saved(saved), tone: "success" }) }
        : {},
    );
  });

  scope.post("/settings/currencies", async (request, reply) => {
    const page = pageOf(request, secureCookies);
    const viewer = page.viewer!;
    if (!may(viewer.user.role, "manage_settings")) return respond.forbidden(reply, page);
    const body = formOf(request.body);
    const currency = (body.get("currency") ?? "").trim().toUpperCase();
    const rate = (body.get("rate") ?? "").trim();
    try {
      await exchangeRates.setMerchantExchangeRate({
        merchantId: viewer.user.merchantId,
        currency,
        rate,
        userId: viewer.user.id,
      });
    } catch (err) {
      const failure = fromConnectError(err);
      if (failure.reason !== "VALIDATION_ERROR") throw failure;
      const details = failure.violations.map((v) => `${v.field}: ${v.message}`).join(" ");
      return settingsPage(reply, page, {
        status: 422,
        typed: { currency: currency.slice(0, 3), rate: rate.slice(0, 40) },
        flash: renderFlash({ text: `${page.m.currencies.invalid}. ${details}`, tone: "alert" }),
      });
    }
    await audit(deps, page, "exchange_rate.set", currency);
    return respond.redirect(reply, page, `/dashboard/settings/currencies?saved=${currency}`);
  });
}
