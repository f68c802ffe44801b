import { ar } from "./ar.js";
import { en } from "./en.js";
import { fr } from "./fr.js";
import type { Messages } from "./messages.js";

export const LANGUAGES = ["fr", "en", "ar"] as const;
export type Language = (typeof LANGUAGES)[number];

/** Used when neither the query, the cookie nor Accept-Language names a language we have. */
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language's own name, for the switcher (always shown in that language). */
export const LANGUAGE_NAMES: Record<Language, string> = { fr: "Français", en: "English", ar: "العربية" };

const MESSAGES: Record<Language, Messages> = { en, fr, ar };

export function messagesFor(language: Language): Messages {
  return MESSAGES[language];
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The best supported language of an Accept-Language header (RFC 9110 12.5.4): ranges by
 * descending q, ties in header order, `fr-TN` matching `fr`, q=0 meaning "not this one".
 */
export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (header === undefined) return undefined;
  const ranges = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((range) => range.q > 0 && range.primary !== "")
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    if (isLanguage(range.primary)) return range.primary;
    // "*" accepts anything: the default is as good as any.
    if (range.primary === "*") return DEFAULT_LANGUAGE;
  }
  return undefined;
}

export interface LanguageChoice {
  language: Language;
  /** True when the buyer picked it with ?lang=, so it is remembered in the gw_lang cookie. */
  chosenNow: boolean;
}

/** The buyer's explicit choice (?lang=) wins, then the remembered one (cookie), then the browser's. */
export function chooseLanguage(input: {
  query?: unknown;
  cookie?: string;
  acceptLanguage?: string;
}): LanguageChoice {
  if (isLanguage(input.query)) return { language: input.query, chosenNow: true };
  if (isLanguage(input.cookie)) return { language: input.cookie, chosenNow: false };
  return { language: languageFromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LANGUAGE, chosenNow: false };
}
