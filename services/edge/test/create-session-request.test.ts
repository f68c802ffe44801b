import { create } from "@bufbuild/protobuf";
import { AccountScopeSchema } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { mapCreateSessionBody, mergeValidationViolations } from "../src/mapping/create-session-request.js";

const scope = create(AccountScopeSchema, { merchantId: "mer_1", livemode: true });
const map = (text: string) => mapCreateSessionBody(JSON.parse(text) as Record<string, unknown>, text, scope);

describe("mapCreateSessionBody", () => {
  it("maps every member of the create body to CreateSessionRequest", () => {
    const text = JSON.stringify({
      merchant_reference: "r",
      amount: "1.000",
      currency: "EUR",
      order_id: "o",
      description: "d",
      items: [{ name: "n", quantity: 2, unit_price: "0.50", description: "i" }],
      buyer_first_name: "f",
      buyer_last_name: "l",
      buyer_email: "e@x.tn",
      buyer_phone: "+216",
      metadata: { k: 1 },
      return_url: "https://r",
      cancel_url: "https://c",
      webhook_url: "https://w",
      max_attempts: 4,
    });
    const { request, edgeViolations } = map(text);
    expect(edgeViolations).toEqual([]);
    expect(request).toMatchObject({
      scope: { merchantId: "mer_1", livemode: true },
      merchantReference: "r",
      amount: "1.000",
      currency: "EUR",
      orderId: "o",
      description: "d",
      items: [{ name: "n", quantity: 2, unitPrice: "0.50", description: "i" }],
      buyerFirstName: "f",
      buyerLastName: "l",
      buyerEmail: "e@x.tn",
      buyerPhone: "+216",
      metadataJson: '{"k":1}',
      returnUrl: "https://r",
      cancelUrl: "https://c",
      webhookUrl: "https://w",
      maxAttempts: 4,
      inputViolations: [],
    });
  });

  it("sends the edge's violations as input_violations", () => {
    const { request } = map('{"merchant_reference":"r","amount":1,"max_attempts":3000000000,"__proto__":{"x":1}}');
    expect(request.inputViolations.map((v) => [v.field, v.code])).toEqual([
      ["amount", "invalid_type"],
      ["max_attempts", "invalid"],
      ["__proto__", "invalid"],
    ]);
    expect(request.amount).toBe("");
    expect(request.maxAttempts).toBeUndefined();
  });

  it("takes the metadata text from the last duplicate member, as JSON.parse does", () => {
    expect(map('{"metadata":{"a":1},"merchant_reference":"r","amount":"1.000","metadata":{"b":2.0}}').request.metadataJson).toBe('{"b":2.0}');
  });
});

describe("mergeValidationViolations", () => {
  const v = (field: string, code: string) => ({ field, code, message: `${field} ${code}` });

  it("drops the service's findings under paths the edge already flagged, keeps the rest and removes duplicates", () => {
    const edge = [v("amount", "invalid_type"), v("items[1]", "invalid"), v("colour", "invalid")];
    const service = [
      v("amount", "invalid_type"),
      v("amount", "required"),
      v("colour", "invalid"),
      v("currency", "currency_unsupported"),
      v("items[1].name", "required"),
      v("items[10].name", "required"),
    ];
    expect(mergeValidationViolations(edge, service).map((x) => `${x.field}:${x.code}`)).toEqual([
      "amount:invalid_type",
      "colour:invalid",
      "currency:currency_unsupported",
      "items[10].name:required",
      "items[1]:invalid",
    ]);
  });

  it("when the service leaves the edge's findings out, then they are still reported", () => {
    expect(mergeValidationViolations([v("x", "invalid")], [v("amount", "invalid_format")]).map((x) => x.field)).toEqual(["amount", "x"]);
  });
});
