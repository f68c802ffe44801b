import { describe, expect, it } from "vitest";
import type { CreateSessionInput } from "../../../src/domain/validation/create-session-input.js";
import {
  type CreateValidation,
  foreignCurrencyOf,
  validateCreateSession,
} from "../../../src/domain/validation/validate-create-session.js";

const scope = { merchantId: "mer_test", livemode: false };

function input(overrides: Partial<CreateSessionInput> = {}): CreateSessionInput {
  return { scope, merchantReference: "order-1", amount: "10.000", items: [], ...overrides };
}

function violationsOf(result: CreateValidation) {
  if (result.ok) throw new Error("expected violations");
  return result.violations.map(({ field, code }) => ({ field, code }));
}

function valid(result: CreateValidation) {
  if (!result.ok) throw new Error(`expected a valid request: ${JSON.stringify(result.violations)}`);
  return result.value;
}

const EUR_RATE = "3.400000";

describe("amount and currency", () => {
  it("when only the required fields are sent, then the request is valid in TND with rate 1", () => {
    const v = valid(validateCreateSession(input(), undefined));
    expect(v.amountMinor).toBe(10000n);
    expect(v.original).toEqual({ amountMinor: 10000n, currency: "TND", rate: "1.000000" });
    expect(v.maxAttempts).toBe(3);
    expect(v.items).toEqual([]);
  });

  it("when EUR 10.00 is asked at rate 3.4, then the session amount is 34.000 TND and the original is kept", () => {
    const v = valid(validateCreateSession(input({ amount: "10.00", currency: "EUR" }), "3.4"));
    expect(v.amountMinor).toBe(34000n);
    expect(v.original).toEqual({ amountMinor: 1000n, currency: "EUR", rate: EUR_RATE });
  });

  it("when a conversion lands on half a millime, then it rounds half-up", () => {
    // 0.05 EUR * 0.123450 = 0.0061725 -> 0.006
    expect(
      valid(validateCreateSession(input({ amount: "0.05", currency: "EUR" }), "0.123450")).amountMinor,
    ).toBe(6n);
    // 0.10 EUR * 0.045 = 0.0045 -> 0.005 (half-up, not half-even)
    expect(
      valid(validateCreateSession(input({ amount: "0.10", currency: "EUR" }), "0.045000")).amountMinor,
    ).toBe(5n);
  });

  it("when the amount is missing, then amount is required", () => {
    expect(violationsOf(validateCreateSession(input({ amount: "" }), undefined))).toEqual([
      { field: "amount", code: "required" },
    ]);
  });

  it.each(["1,000.000", "010.000", "1e3", " 10.000", "+10.000", "ten", "10.000\n"])(
    "when the amount is %j, then it is invalid_format",
    (amount) => {
      expect(violationsOf(validateCreateSession(input({ amount }), undefined))).toEqual([
        { field: "amount", code: "invalid_format" },
      ]);
    },
  );

  it.each([
    ["10.00", "TND"],
    ["10", "TND"],
    ["10.000", "EUR"],
    ["10.5", "EUR"],
  ])("when the amount %s has the wrong decimals for %s, then it is invalid_precision", (amount, currency) => {
    expect(violationsOf(validateCreateSession(input({ amount, currency }), EUR_RATE))).toEqual([
      { field: "amount", code: "invalid_precision" },
    ]);
  });

  it.each(["0.000", "-5.000"])("when the amount is %s, then it is invalid_value", (amount) => {
    expect(violationsOf(validateCreateSession(input({ amount }), undefined))).toEqual([
      { field: "amount", code: "invalid_value" },
    ]);
  });

  it("when a foreign amount rounds to nothing in TND, then it is invalid_value and says so", () => {
    const result = validateCreateSession(input({ amount: "0.01", currency: "EUR" }), "0.040000");
    expect(violationsOf(result)).toEqual([{ field: "amount", code: "invalid_value" }]);
    expect(result.ok ? "" : result.violations[0]!.message).toContain("rounds to nothing in TND");
  });

  it("when a TND amount is over 999999.999, then it is amount_too_large", () => {
    expect(violationsOf(validateCreateSession(input({ amount: "1000000.000" }), undefined))).toEqual([
      { field: "amount", code: "amount_too_large" },
    ]);
    expect(validateCreateSession(input({ amount: "999999.999" }), undefined).ok).toBe(true);
  });

  it("when a foreign amount is over the maximum only after conversion, then it is amount_too_large", () => {
    const result = validateCreateSession(input({ amount: "300000.00", currency: "EUR" }), EUR_RATE);
    expect(violationsOf(result)).toEqual([{ field: "amount", code: "amount_too_large" }]);
    expect(result.ok ? "" : result.violations[0]!.message).toContain("1020000.000 TND");
  });

  it("when a foreign amount is large in its own currency but small in TND, then it is accepted", () => {
    expect(
      valid(validateCreateSession(input({ amount: "5000000", currency: "JPY" }), "0.020000")).amountMinor,
    ).toBe(100000000n);
  });

  it.each(["eur", "EURO", "E1R", "", "XYZ"])(
    "when the currency is %j, then currency is invalid",
    (currency) => {
      expect(violationsOf(validateCreateSession(input({ amount: "10.00", currency }), EUR_RATE))).toEqual([
        { field: "currency", code: "invalid" },
      ]);
    },
  );

  it("when the currency is invalid, then the amount is still checked for format but not for precision", () => {
    expect(
      violationsOf(validateCreateSession(input({ amount: "1,000", currency: "ZZZ" }), undefined)),
    ).toEqual([
      { field: "amount", code: "invalid_format" },
      { field: "currency", code: "invalid" },
    ]);
    expect(
      violationsOf(validateCreateSession(input({ amount: "10.00", currency: "ZZZ" }), undefined)),
    ).toEqual([{ field: "currency", code: "invalid" }]);
  });

  it("when no rate is configured for a foreign currency, then it is currency_unsupported with guidance", () => {
    const result = validateCreateSession(input({ amount: "10.00", currency: "EUR" }), undefined);
    expect(violationsOf(result)).toEqual([{ field: "currency", code: "currency_unsupported" }]);
    expect(result.ok ? "" : result.violations[0]!.message).toBe(
      "No exchange rate is configured for EUR; configure one in the dashboard currency settings or request in TND.",
    );
  });

  it("only a valid foreign currency needs a rate", () => {
    expect(foreignCurrencyOf(input({ currency: "EUR" }))).toBe("EUR");
    expect(foreignCurrencyOf(input())).toBeUndefined();
    expect(foreignCurrencyOf(input({ currency: "TND" }))).toBeUndefined();
    expect(foreignCurrencyOf(input({ currency: "eur" }))).toBeUndefined();
  });
});

describe("text fields", () => {
  it("when merchant_reference is missing, then it is required", () => {
    expect(violationsOf(validateCreateSession(input({ merchantReference: "" }), undefined))).toEqual([
      { field: "merchant_reference", code: "required" },
    ]);
  });

  it.each([
    ["merchant_reference", { merchantReference: "x".repeat(201) }],
    ["merchant_reference", { merchantReference: "   " }],
    ["merchant_reference", { merchantReference: "a\u0000b" }],
    ["order_id", { orderId: "x".repeat(101) }],
    ["description", { description: "x".repeat(501) }],
    ["buyer_first_name", { buyerFirstName: "x".repeat(101) }],
    ["buyer_last_name", { buyerLastName: "x".repeat(101) }],
    ["buyer_email", { buyerEmail: "not-an-email" }],
    ["buyer_email", { buyerEmail: "a b@example.com" }],
    ["buyer_email", { buyerEmail: `${"x".repeat(250)}@example.com` }],
    ["buyer_phone", { buyerPhone: "call me" }],
    ["buyer_phone", { buyerPhone: "+216 71 000 000 000 00" }],
    ["return_url", { returnUrl: "/relative/path" }],
    ["return_url", { returnUrl: "ftp://example.com/file" }],
    ["cancel_url", { cancelUrl: "https://example.com/a b" }],
    ["cancel_url", { cancelUrl: `https://example.com/${"x".repeat(2030)}` }],
    ["webhook_url", { webhookUrl: "javascript:alert(1)" }],
    ["max_attempts", { maxAttempts: 0 }],
    ["max_attempts", { maxAttempts: 11 }],
  ] as const)("when %s is out of bounds or malformed, then it is invalid", (field, overrides) => {
    expect(violationsOf(validateCreateSession(input(overrides), undefined))).toEqual([
      { field, code: "invalid" },
    ]);
  });

  it.each([
    ["order_id", { orderId: "" }],
    ["description", { description: "" }],
    ["buyer_first_name", { buyerFirstName: "" }],
    ["buyer_last_name", { buyerLastName: "" }],
    ["buyer_email", { buyerEmail: "" }],
    ["buyer_phone", { buyerPhone: "" }],
    ["metadata", { metadataJson: "" }],
    ["return_url", { returnUrl: "" }],
    ["cancel_url", { cancelUrl: "" }],
    ["webhook_url", { webhookUrl: "" }],
  ] as const)("when optional %s is sent empty, then it is invalid", (field, overrides) => {
    expect(violationsOf(validateCreateSession(input(overrides), undefined))).toEqual([
      { field, code: "invalid" },
    ]);
  });

  it("when every field is at its limit, then the request is valid and keeps the values as sent", () => {
    const v = valid(
      validateCreateSession(
        input({
          merchantReference: "r".repeat(200),
          orderId: "o".repeat(100),
          description: "Line one\nLine two\t".padEnd(500, "d"),
          buyerFirstName: "Émile".padEnd(100, "e"),
          buyerLastName: "بن علي",
          buyerEmail: "buyer@example.tn",
          buyerPhone: "+216 (71) 000-000",
          returnUrl: "https://shop.example.com/return?x=1",
          cancelUrl: "http://localhost:3000/cancel",
          webhookUrl: "http://localhost:3000/hooks",
          maxAttempts: 10,
          metadataJson: '{"a.b":{"$c":[[1,2],[3]]},"é":"😀"}',
        }),
        undefined,
      ),
    );
    expect(v.buyer).toEqual({
      firstName: "Émile".padEnd(100, "e"),
      lastName: "بن علي",
      email: "buyer@example.tn",
      phone: "+216 (71) 000-000",
    });
    expect(v.metadataJson).toBe('{"a.b":{"$c":[[1,2],[3]]},"é":"😀"}');
    expect(v.maxAttempts).toBe(10);
  });

  it("when lengths count characters, then a 200-character reference of emoji is accepted", () => {
    expect(validateCreateSession(input({ merchantReference: "😀".repeat(200) }), undefined).ok).toBe(true);
  });

  it("when a live-mode webhook_url is plain http, then it is invalid; in test mode it is accepted", () => {
    const live = { merchantId: "mer_test", livemode: true };
    expect(
      violationsOf(
        validateCreateSession(input({ scope: live, webhookUrl: "http://example.com/hook" }), undefined),
      ),
    ).toEqual([{ field: "webhook_url", code: "invalid" }]);
    expect(
      validateCreateSession(input({ scope: live, webhookUrl: "https://example.com/hook" }), undefined).ok,
    ).toBe(true);
    expect(validateCreateSession(input({ webhookUrl: "http://example.com/hook" }), undefined).ok).toBe(true);
  });
});

describe("metadata", () => {
  it.each(["[1,2]", "null", '"text"', "42", "{not json", "{} {}"])(
    "when metadata is %j, then it is invalid",
    (metadataJson) => {
      expect(violationsOf(validateCreateSession(input({ metadataJson }), undefined))).toEqual([
        { field: "metadata", code: "invalid" },
      ]);
    },
  );

  it("when metadata is over 20 KiB, then it is invalid", () => {
    const big = JSON.stringify({ blob: "x".repeat(20 * 1024) });
    expect(violationsOf(validateCreateSession(input({ metadataJson: big }), undefined))).toEqual([
      { field: "metadata", code: "invalid" },
    ]);
  });
});

describe("line items", () => {
  const item = { name: "Mug", quantity: 2, unitPrice: "12.500" };

  it("when items are valid, then unit prices are kept in minor units of the original currency", () => {
    const v = valid(
      validateCreateSession(
        input({
          amount: "10.00",
          currency: "EUR",
          items: [{ name: "Mug", quantity: 2, unitPrice: "5.00", description: "Blue" }],
        }),
        EUR_RATE,
      ),
    );
    expect(v.items).toEqual([{ name: "Mug", quantity: 2, unitPriceMinor: 500n, description: "Blue" }]);
  });

  it("when item fields are wrong, then each is reported at its own path", () => {
    const result = validateCreateSession(
      input({
        items: [
          item,
          { name: "", quantity: 0, unitPrice: "" },
          { name: "x".repeat(201), quantity: 10001, unitPrice: "1.5", description: "d".repeat(501) },
          { name: "Free", quantity: 1, unitPrice: "0.000" },
          { name: "Huge", quantity: 1, unitPrice: "1000000.000" },
          { name: "Bad", quantity: 1.5, unitPrice: "1 000.000" },
        ],
      }),
      undefined,
    );
    expect(violationsOf(result)).toEqual([
      { field: "items[1].name", code: "required" },
      { field: "items[1].quantity", code: "invalid" },
      { field: "items[1].unit_price", code: "required" },
      { field: "items[2].name", code: "invalid" },
      { field: "items[2].quantity", code: "invalid" },
      { field: "items[2].unit_price", code: "invalid_precision" },
      { field: "items[2].description", code: "invalid" },
      { field: "items[3].unit_price", code: "invalid_value" },
      { field: "items[4].unit_price", code: "amount_too_large" },
      { field: "items[5].quantity", code: "invalid" },
      { field: "items[5].unit_price", code: "invalid_format" },
    ]);
    expect(
      result.ok ? "" : result.violations.find((v) => v.field === "items[2].unit_price")!.message,
    ).toMatch(/^items\[2\]\.unit_price/);
  });

  it("when there are more than 100 items, then items is invalid", () => {
    const items = Array.from({ length: 101 }, () => item);
    expect(violationsOf(validateCreateSession(input({ items }), undefined))).toEqual([
      { field: "items", code: "invalid" },
    ]);
    expect(validateCreateSession(input({ items: items.slice(0, 100) }), undefined).ok).toBe(true);
  });
});

describe("reporting", () => {
  it("when many fields fail, then every violation is reported at once, in field order", () => {
    const result = validateCreateSession(
      input({
        merchantReference: "",
        amount: "10.00",
        currency: "EUR",
        buyerEmail: "nope",
        webhookUrl: "not a url",
        maxAttempts: 99,
      }),
      undefined,
    );
    expect(violationsOf(result)).toEqual([
      { field: "merchant_reference", code: "required" },
      { field: "currency", code: "currency_unsupported" },
      { field: "buyer_email", code: "invalid" },
      { field: "webhook_url", code: "invalid" },
      { field: "max_attempts", code: "invalid" },
    ]);
  });
});
