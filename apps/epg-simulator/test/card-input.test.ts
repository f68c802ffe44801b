import { describe, expect, it } from "vitest";
import { isExpired, maskCardNumber, parseExpiry, validateCardInput } from "../src/card-input.js";
import { passesLuhn, TEST_CARDS } from "../src/index.js";

const NOW = new Date("2026-03-10T12:00:00Z");

function form(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams({
    cardholder_name: "Ada Lovelace",
    card_number: "4242 4242 4242 4242",
    expiry: "12/30",
    cvc: "123",
    ...fields,
  });
}

describe("card input on the simulator's page", () => {
  it("every documented test card passes the Luhn check", () => {
    for (const card of TEST_CARDS) expect(passesLuhn(card.number), card.number).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("42a2")).toBe(false);
  });

  it.each([
    ["12/30", { month: 12, year: 2030 }],
    ["1/31", { month: 1, year: 2031 }],
    ["03 / 2029", { month: 3, year: 2029 }],
    ["0330", { month: 3, year: 2030 }],
  ])("when the expiry is written %s, then it is read", (text, expected) => {
    expect(parseExpiry(text)).toEqual(expected);
  });

  it.each([["13/30"], ["00/30"], ["12-30"], ["december"], [""]])(
    "when the expiry is %s, then it is not a date",
    (text) => {
      expect(parseExpiry(text)).toBeUndefined();
    },
  );

  it("a card is valid through the last day of its expiry month", () => {
    expect(isExpired({ month: 3, year: 2026 }, NOW)).toBe(false);
    expect(isExpired({ month: 2, year: 2026 }, NOW)).toBe(true);
    expect(isExpired({ month: 3, year: 2026 }, new Date("2026-04-01T00:00:00Z"))).toBe(true);
  });

  it("when everything is right, then the digits and the name come out", () => {
    expect(validateCardInput(form({}), NOW)).toEqual({
      ok: true,
      card: { cardNumber: "4242424242424242", cardholderName: "Ada Lovelace" },
    });
  });

  it("when several fields are wrong, then each gets its own error", () => {
    const result = validateCardInput(
      form({ cardholder_name: " ", card_number: "1234", expiry: "01/20", cvc: "1" }),
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        cardholderName: "name_required",
        cardNumber: "number_invalid",
        expiry: "expiry_past",
        cvc: "cvc_invalid",
      },
      cardholderName: "",
      expiry: "01/20",
    });
  });

  it("an American Express card needs a four-digit CVC", () => {
    expect(validateCardInput(form({ card_number: "378282246310005", cvc: "123" }), NOW).ok).toBe(false);
    expect(validateCardInput(form({ card_number: "378282246310005", cvc: "1234" }), NOW).ok).toBe(true);
  });

  it("the mask keeps the first six and last four digits only", () => {
    expect(maskCardNumber("4242424242424242")).toBe("424242**4242");
  });
});
