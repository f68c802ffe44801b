import type { CardField, CardInputError } from "./card-input.js";
import { CARD_FIELDS } from "./card-input.js";
import { messagesFor, type PageLanguage, type PageMessages } from "./card-page-messages.js";

// The simulator's card page: plain HTML forms (works without JavaScript; there is none),
// labelled inputs with the standard autocomplete tokens, errors announced and linked to their
// field, and nothing loaded from anywhere else. The card number and CVC are never written
// back into a page.

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1a1a1a}
main{max-width:28rem;margin:2rem auto;background:#fff;padding:1.5rem;border-radius:8px;border:1px solid #c9ccd1}
h1{font-size:1.4rem;margin:0 0 1rem}
.note{background:#fff4ce;border:1px solid #8a6d00;padding:.5rem .75rem;border-radius:4px}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{font-weight:600}dd{margin:0}
.field{margin:0 0 1rem}
label{display:block;font-weight:600}
.hint{margin:.1rem 0 .3rem;color:#4a4f57;font-size:.9rem}
input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #5c6370;border-radius:4px}
input[aria-invalid=true]{border:2px solid #b00020}
.error{color:#b00020;font-weight:600;margin:.2rem 0 0}
.summary{border:2px solid #b00020;padding:.5rem 1rem;border-radius:4px;margin:0 0 1rem}
.summary a{color:#b00020}
button,.button{font:inherit;font-weight:600;background:#1b4fd8;color:#fff;border:0;border-radius:4px;padding:.7rem 1.2rem;width:100%;cursor:pointer;display:inline-block;text-align:center;text-decoration:none;box-sizing:border-box}
:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
`;

function page(language: PageLanguage, m: PageMessages, styleNonce: string, body: string): string {
  return `<!doctype html>
<html lang="${language}" dir="${m.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(m.title)}</title>
<style nonce="${escapeHtml(styleNonce)}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

interface FieldSpec {
  field: CardField;
  label: string;
  hint?: string;
  autocomplete: string;
  inputmode?: string;
  maxlength: number;
  value?: string;
}

function fieldHtml(spec: FieldSpec, error: string | undefined): string {
  const name = CARD_FIELDS[spec.field];
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  const describedBy = [spec.hint === undefined ? "" : hintId, error === undefined ? "" : errorId]
    .filter((id) => id !== "")
    .join(" ");
  const attributes = [
    `id="${name}"`,
    `name="${name}"`,
    `type="text"`,
    `autocomplete="${spec.autocomplete}"`,
    spec.inputmode === undefined ? "" : `inputmode="${spec.inputmode}"`,
    `maxlength="${spec.maxlength}"`,
    `required`,
    `aria-required="true"`,
    describedBy === "" ? "" : `aria-describedby="${describedBy}"`,
    error === undefined ? "" : `aria-invalid="true"`,
    spec.inputmode === "numeric" ? `spellcheck="false"` : "",
    spec.value === undefined || spec.value === "" ? "" : `value="${escapeHtml(spec.value)}"`,
  ].filter((a) => a !== "");
  return `<div class="field">
<label for="${name}">${escapeHtml(spec.label)}</label>
${spec.hint === undefined ? "" : `<p class="hint" id="${hintId}">${escapeHtml(spec.hint)}</p>`}
<input ${attributes.join(" ")}>
${error === undefined ? "" : `<p class="error" id="${errorId}">${escapeHtml(error)}</p>`}
</div>`;
}

export interface CardFormView {
  language: PageLanguage;
  styleNonce: string;
  /** Where the form posts: the page's own URL. */
  action: string;
  orderNumber: string;
  amountText: string;
  description?: string;
  errors?: Partial<Record<CardField, CardInputError>>;
  /** Values worth keeping after an error: never the card number or the CVC. */
  cardholderName?: string;
  expiry?: string;
}

export function renderCardForm(view: CardFormView): string {
  const m = messagesFor(view.language);
  const errors = view.errors ?? {};
  const errorText = (field: CardField): string | undefined => {
    const code = errors[field];
    return code === undefined ? undefined : m.errors[code];
  };
  const fields: FieldSpec[] = [
    {
      field: "cardholderName",
      label: m.cardholderName,
      autocomplete: "cc-name",
      maxlength: 100,
      value: view.cardholderName,
    },
    {
      field: "cardNumber",
      label: m.cardNumber,
      hint: m.cardNumberHint,
      autocomplete: "cc-number",
      inputmode: "numeric",
      maxlength: 23,
    },
    {
      field: "expiry",
      label: m.expiry,
      hint: m.expiryHint,
      autocomplete: "cc-exp",
      inputmode: "numeric",
      maxlength: 7,
      value: view.expiry,
    },
    {
      field: "cvc",
      label: m.cvc,
      hint: m.cvcHint,
      autocomplete: "cc-csc",
      inputmode: "numeric",
      maxlength: 4,
    },
  ];
  const failed = fields.filter((f) => errorText(f.field) !== undefined);
  const summary =
    failed.length === 0
      ? ""
      : `<div class="summary" role="alert" aria-labelledby="summary-title" tabindex="-1">
<p id="summary-title"><strong>${escapeHtml(m.errorSummary)}</strong></p>
<ul>${failed.map((f) => `<li><a href="#${CARD_FIELDS[f.field]}">${escapeHtml(errorText(f.field) ?? "")}</a></li>`).join("")}</ul>
</div>`;
  const description =
    view.description === undefined
      ? ""
      : `<dt>${escapeHtml(m.description)}</dt><dd>${escapeHtml(view.description)}</dd>`;
  const body = `<h1>${escapeHtml(m.title)}</h1>
<p class="note" role="note">${escapeHtml(m.testMode)}</p>
<dl>
<dt>${escapeHtml(m.orderNumber)}</dt><dd>${escapeHtml(view.orderNumber)}</dd>
<dt>${escapeHtml(m.amount)}</dt><dd>${escapeHtml(view.amountText)}</dd>
${description}
</dl>
${summary}
<form method="post" action="${escapeHtml(view.action)}" novalidate>
${fields.map((f) => fieldHtml(f, errorText(f.field))).join("\n")}
<button type="submit">${escapeHtml(m.pay(view.amountText))}</button>
</form>`;
  return page(view.language, m, view.styleNonce, body);
}

export interface NoticeView {
  language: PageLanguage;
  styleNonce: string;
  message: string;
  /** Where the buyer goes on from here (the merchant's return or fail URL), if anywhere. */
  continueUrl?: string;
}

/** A page with one message: order already paid, declined, expired, unknown. */
export function renderNotice(view: NoticeView): string {
  const m = messagesFor(view.language);
  const link =
    view.continueUrl === undefined
      ? ""
      : `<p><a class="button" href="${escapeHtml(view.continueUrl)}">${escapeHtml(m.continueToMerchant)}</a></p>`;
  const body = `<h1>${escapeHtml(m.title)}</h1>
<p role="status">${escapeHtml(view.message)}</p>
${link}`;
  return page(view.language, m, view.styleNonce, body);
}
