import { currencyInfo, D } from "@gateway/money";
import type { Language } from "./i18n/languages.js";

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Separators per page language. French uses a narrow no-break space to group and a comma for
 * decimals ("1 234,500 TND"). Arabic pages use Western digits with the point as decimal mark
 * ("1,234.500 TND"): that is what Tunisian card slips, receipts and the acquirer's page show,
 * and Arabic-Indic digits next to a comma-or-point question would make an amount ambiguous.
 */
const SEPARATORS: Record<Language, { group: string; decimal: string }> = {
  en: { group: ",", decimal: "." },
  fr: { group: "\u202f", decimal: "," },
  ar: { group: ",", decimal: "." },
};

/**
 * An amount for a page, from its exact decimal string: digits are never passed through a JS
 * number. The fraction is padded to the currency's minor units ("12.5" EUR shows as 12.50) and
 * never rounded; the ISO code follows after a no-break space.
 */
export function formatMoney(amount: string, currency: string, language: Language): string {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return `${amount}\u00a0${currency}`;
  const [, sign = "", whole = "0", given = ""] = match;
  const minorUnits = currencyInfo(currency)?.minorUnits ?? given.length;
  const fraction = given.padEnd(minorUnits, "0");
  const { group, decimal } = SEPARATORS[language];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${grouped}${fraction === "" ? "" : `${decimal}${fraction}`}\u00a0${currency}`;
}

/** A plain decimal (an exchange rate) with the page's decimal mark, digits untouched. */
export function formatDecimal(value: string, language: Language): string {
  const match = DECIMAL.exec(value.trim());
  if (!match) return value;
  const [, sign = "", whole = "0", fraction] = match;
  return `${sign}${whole}${fraction === undefined ? "" : `${SEPARATORS[language].decimal}${fraction}`}`;
}

/** quantity x unit price, exactly (decimal.js), at the unit price's precision; undefined if unreadable. */
export function lineTotal(unitPrice: string, quantity: number): string | undefined {
  const match = DECIMAL.exec(unitPrice.trim());
  if (!match || !Number.isSafeInteger(quantity) || quantity < 0) return undefined;
  return D(unitPrice.trim())
    .times(quantity)
    .toFixed((match[3] ?? "").length);
}
