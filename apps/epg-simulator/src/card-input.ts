import { cardBrandFromBin } from "@gateway/acquirer";

/** Field names of the card form (the HTML `name`s). */
export const CARD_FIELDS = {
  cardholderName: "cardholder_name",
  cardNumber: "card_number",
  expiry: "expiry",
  cvc: "cvc",
} as const;

export type CardField = keyof typeof CARD_FIELDS;

export type CardInputError =
  | "name_required"
  | "number_invalid"
  | "expiry_invalid"
  | "expiry_past"
  | "cvc_invalid";

export interface ValidCard {
  /** Digits only. Handed to processing and masking, then dropped. */
  cardNumber: string;
  cardholderName: string;
}

export type CardInputResult =
  | { ok: true; card: ValidCard }
  | { ok: false; errors: Partial<Record<CardField, CardInputError>>; cardholderName: string; expiry: string };

/** The Luhn (mod 10) check every card number carries. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** "MM/YY", "MM / YYYY", "MMYY": month and four-digit year, or undefined. */
export function parseExpiry(text: string): { month: number; year: number } | undefined {
  const match = /^(\d{1,2})\s*\/?\s*(\d{2}|\d{4})$/.exec(text.trim());
  if (match === null) return undefined;
  const month = Number(match[1]);
  const yearText = match[2] ?? "";
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return undefined;
  return { month, year };
}

/** A card is valid through the last day of its expiry month. */
export function isExpired(expiry: { month: number; year: number }, now: Date): boolean {
  const firstInvalidDay = Date.UTC(expiry.year, expiry.month, 1);
  return now.getTime() >= firstInvalidDay;
}

/** Masks as acquirers do: first six and last four digits ("424242**4242"). */
export function maskCardNumber(digits: string): string {
  return `${digits.slice(0, 6)}**${digits.slice(-4)}`;
}

/** Checks the posted card form. Errors never echo the card number or the CVC back. */
export function validateCardInput(form: URLSearchParams, now: Date): CardInputResult {
  const cardholderName = (form.get(CARD_FIELDS.cardholderName) ?? "").trim().slice(0, 100);
  const cardNumber = (form.get(CARD_FIELDS.cardNumber) ?? "").replace(/[\s-]/g, "");
  const expiryText = (form.get(CARD_FIELDS.expiry) ?? "").trim().slice(0, 10);
  const cvc = (form.get(CARD_FIELDS.cvc) ?? "").trim();

  const errors: Partial<Record<CardField, CardInputError>> = {};
  if (cardholderName === "") errors.cardholderName = "name_required";
  const numberOk = /^\d{12,19}$/.test(cardNumber) && passesLuhn(cardNumber);
  if (!numberOk) errors.cardNumber = "number_invalid";
  const expiry = parseExpiry(expiryText);
  if (expiry === undefined) errors.expiry = "expiry_invalid";
  else if (isExpired(expiry, now)) errors.expiry = "expiry_past";
  const cvcLength = numberOk && cardBrandFromBin(cardNumber) === "amex" ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(cvc)) errors.cvc = "cvc_invalid";

  if (Object.keys(errors).length > 0) return { ok: false, errors, cardholderName, expiry: expiryText };
  return { ok: true, card: { cardNumber, cardholderName } };
}
