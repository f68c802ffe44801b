export type CardBrand = "visa" | "mastercard" | "amex" | "unknown";

/**
 * The card brand from the leading digits of a card number (its BIN). Only the brands a
 * Tunisian acquirer routes are told apart; everything else is "unknown" rather than a guess.
 * Visa: 4. Mastercard: 51-55 and the 2-series 2221-2720. American Express: 34, 37.
 */
export function cardBrandFromBin(leadingDigits: string): CardBrand {
  if (!/^\d+$/.test(leadingDigits)) return "unknown";
  if (leadingDigits.startsWith("4")) return "visa";
  if (leadingDigits.length >= 2) {
    const two = Number(leadingDigits.slice(0, 2));
    if (two >= 51 && two <= 55) return "mastercard";
    if (two === 34 || two === 37) return "amex";
  }
  if (leadingDigits.length >= 4) {
    const four = Number(leadingDigits.slice(0, 4));
    if (four >= 2221 && four <= 2720) return "mastercard";
  }
  return "unknown";
}

/**
 * Brand and last four from a masked PAN such as "424242**4242" or "4242 42XX XXXX 4242".
 * Only these two facts leave this function: the masked PAN itself is never kept or returned.
 */
export function summarizeMaskedPan(maskedPan: string): { brand: CardBrand; lastFour: string } | undefined {
  const compact = maskedPan.replace(/[\s-]/g, "");
  const lead = /^\d+/.exec(compact)?.[0] ?? "";
  const lastFour = /(\d{4})$/.exec(compact)?.[1];
  if (lastFour === undefined) return undefined;
  return { brand: cardBrandFromBin(lead), lastFour };
}
