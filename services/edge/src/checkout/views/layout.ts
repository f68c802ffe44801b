import { html, type SafeHtml } from "../html.js";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "../i18n/languages.js";
import type { Messages } from "../i18n/messages.js";

export interface LayoutView {
  language: Language;
  m: Messages;
  title: string;
  stylesheetHref: string;
  /** Shown in the header when known. */
  merchantName?: string;
  /** The URL of each language's version of this page (the switcher's links). */
  languageHref: (language: Language) => string;
  /** Test-mode sessions say so on every page. */
  testMode?: boolean;
  /** `<meta http-equiv="refresh">`: the only way a page without JavaScript checks again by itself. */
  refresh?: { seconds: number; url: string };
  main: SafeHtml;
}

/**
 * The frame of every checkout page: language and direction on <html>, one stylesheet, a header
 * with the merchant and the language switcher (plain links), <main> holding the one h1, a footer.
 * No script of any kind.
 */
export function renderLayout(view: LayoutView): SafeHtml {
  const { m, language } = view;
  const refresh =
    view.refresh === undefined
      ? ""
      : html`<meta http-equiv="refresh" content="${`${view.refresh.seconds}; url=${view.refresh.url}`}">`;
  const switcher = LANGUAGES.map((lang) => {
    const current = lang === language;
    return html`<li><a href="${view.languageHref(lang)}" hreflang="${lang}" lang="${lang}"${current ? html` aria-current="true"` : ""}>${LANGUAGE_NAMES[lang]}</a></li>`;
  });
  const brand =
    view.merchantName === undefined || view.merchantName === ""
      ? ""
      : html`<p class="brand">${view.merchantName}</p>`;
  return html`<!doctype html>
<html lang="${language}" dir="${m.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
${refresh}
<title>${view.title}</title>
<link rel="stylesheet" href="${view.stylesheetHref}">
</head>
<body>
<a class="skip-link" href="#main">${m.skipToContent}</a>
<header class="site-header">
<div class="site-header-inner">
${brand}
<nav class="languages" aria-label="${m.languageSwitcher}">
<ul>${switcher}</ul>
</nav>
</div>
</header>
<main id="main" tabindex="-1">
${view.testMode ? html`<p class="badge">${m.testMode}</p>` : ""}
${view.main}
</main>
<footer class="site-footer">
<div class="site-footer-inner"><p>${m.secureFooter}</p></div>
</footer>
</body>
</html>
`;
}
