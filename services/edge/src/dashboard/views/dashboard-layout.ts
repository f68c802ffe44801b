import { html, type SafeHtml } from "../../checkout/html.js";
import { LANGUAGE_NAMES, LANGUAGES } from "../../checkout/i18n/languages.js";
import { CSRF_FIELD } from "../dashboard-csrf.js";
import type { DashboardPage } from "../dashboard-page.js";

/** The sections in the navigation, in order, by the path they live at. */
export type Section =
  | "payments"
  | "apiKeys"
  | "webhooks"
  | "currencies"
  | "business"
  | "users"
  | "audit"
  | "account";

export const SECTION_PATHS: Record<Section, string> = {
  payments: "/dashboard/payments",
  apiKeys: "/dashboard/developers/api-keys",
  webhooks: "/dashboard/developers/webhooks",
  currencies: "/dashboard/settings/currencies",
  business: "/dashboard/settings/business",
  users: "/dashboard/users",
  audit: "/dashboard/audit-log",
  account: "/dashboard/account",
};

export interface Stylesheets {
  /** The checkout's stylesheet (palette, type, buttons, tables, alerts), linked first. */
  base: string;
  dashboard: string;
}

export interface DashboardLayoutView {
  page: DashboardPage;
  stylesheets: Stylesheets;
  title: string;
  /** Absent on pages outside the signed-in dashboard (sign-in, invitation, errors). */
  section?: Section;
  main: SafeHtml;
}

/** The hidden field every signed-in form carries. */
export function csrfInput(page: DashboardPage): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${page.viewer?.csrfToken ?? ""}">`;
}

/**
 * The frame of every dashboard page: language and direction on <html>, the stylesheets, the
 * language switcher, and for a signed-in user the navigation, the mode and a sign-out form;
 * <main> holds the one h1. No script of any kind.
 */
export function renderDashboardLayout(view: DashboardLayoutView): SafeHtml {
  const { page } = view;
  const { m } = page;
  const switcher = LANGUAGES.map((lang) => {
    const current = lang === page.language;
    return html`<li><a href="${page.languageHref(lang)}" hreflang="${lang}" lang="${lang}"${current ? html` aria-current="true"` : ""}>${LANGUAGE_NAMES[lang]}</a></li>`;
  });
  const viewer = page.viewer;
  const signedIn =
    viewer === undefined
      ? ""
      : html`<nav class="app-nav" aria-label="${m.mainNavigation}"><ul>${viewer.sections.map(
          (section) =>
            html`<li><a href="${SECTION_PATHS[section]}"${section === view.section ? html` aria-current="page"` : ""}>${m.nav[section]}</a></li>`,
        )}</ul></nav>
<div class="session-bar">
<span>${m.signedInAs(viewer.user.email, m.roles[viewer.user.role as keyof typeof m.roles] ?? viewer.user.role)}</span>
${renderModeSwitch(page)}
<form method="post" action="/dashboard/sign-out">${csrfInput(page)}<button class="button secondary inline" type="submit">${m.signOut}</button></form>
</div>`;
  return html`<!doctype html>
<html lang="${page.language}" dir="${m.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${view.title} · ${m.appName}</title>
<link rel="stylesheet" href="${view.stylesheets.base}">
<link rel="stylesheet" href="${view.stylesheets.dashboard}">
</head>
<body class="dashboard">
<a class="skip-link" href="#main">${m.skipToContent}</a>
<header class="site-header">
<div class="site-header-inner">
<p class="brand">${m.appName}</p>
<nav class="languages" aria-label="${m.languageSwitcher}"><ul>${switcher}</ul></nav>
${signedIn}
</div>
</header>
<main id="main" tabindex="-1">
${view.main}
</main>
</body>
</html>
`;
}

function renderModeSwitch(page: DashboardPage): SafeHtml {
  const { m, viewer } = page;
  if (!viewer) return html``;
  const live = viewer.scope.livemode;
  const current = live ? m.mode.live : m.mode.test;
  const other = live ? "test" : "live";
  if (!live && !viewer.liveAllowed)
    return html`<span class="badge mode-test">${current}</span><span>${m.mode.liveLocked}</span>`;
  return html`<span class="badge${live ? "" : " mode-test"}">${current}</span>
<form method="post" action="/dashboard/mode">${csrfInput(page)}<input type="hidden" name="mode" value="${other}"><button class="button secondary inline" type="submit">${m.mode.switchTo(live ? m.mode.test : m.mode.live)}</button></form>`;
}
