import type { Language } from "../../checkout/i18n/languages.js";
import { ar } from "./ar.js";
import { en } from "./en.js";
import { fr } from "./fr.js";
import type { DashboardMessages } from "./messages.js";

const MESSAGES: Record<Language, DashboardMessages> = { en, fr, ar };

/** The dashboard's texts in `language` (the same three languages as the checkout). */
export function dashboardMessagesFor(language: Language): DashboardMessages {
  return MESSAGES[language];
}
