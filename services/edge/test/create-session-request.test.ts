import { create } from "@bufbuild/protobuf";
import { GatewayError } from "@gateway/platform";
import { AccountScopeSchema } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { routeSchema } from "../src/api/operations.js";
import { schemaValidatorCompiler } from "../src/api/schema-validation.js";
import type { CreateSessionBody } from "../src/api/schemas/sessions.js";
import { mapCreateSessionBody } from "../src/mapping/create-session-request.js";

const scope = create(AccountScopeSchema, { merchantId: "mer_1", livemode: true });
const validateBody = schemaValidatorCompiler({
  schema: routeSchema("createSession").body!,
  httpPart: "body",
  method: "POST",
  url: "/",
});

/** What the create route's schema makes of a body: the accepted body, or the error it answers. */
function validate(text: string): { body?: CreateSessionBody; error?: GatewayError } {
  const result = validateBody(JSON.parse(text)) as { value?: CreateSessionBody; error?: GatewayError };
  return result.error ? { error: result.error } : { body: result.value! };
}

const map = (text: string) => {
  const { body, error } = validate(text);
  if (error) throw error;
  return mapCreateSessionBody(body!, text, scope);
};

describe("create body: the route schema, then the mapping", () => {
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
    expect(map(text)).toMatchObject({
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
      inputViolations: [], // the edge never sends any (the field stays in the proto for compatibility)
    });
  });

  it("answers shape faults with the spec's codes and messages, in the body's declared order", () => {
    const { error } = validate(
      '{"amount":1,"max_attempts":3000000000,"__proto__":{"x":1},"items":[{"name":"n","quantity":1.5,"colour":"red"},3]}',
    );
    expect(error?.reason).toBe("VALIDATION_ERROR");
    expect(error?.violations).toEqual([
      { field: "merchant_reference", code: "required", message: "This field is required." },
      {
        field: "amount",
        code: "invalid_type",
        message: 'Must be a decimal string such as "12.500", not a JSON number.',
      },
      { field: "items[0].quantity", code: "invalid", message: "Must be an integer." },
      { field: "items[0].unit_price", code: "required", message: "This field is required." },
      { field: "items[0].colour", code: "invalid", message: "Unknown field." },
      {
        field: "items[1]",
        code: "invalid",
        message: "Must be an object with name, quantity and unit_price.",
      },
      { field: "max_attempts", code: "invalid", message: "Must be an integer." },
      { field: "__proto__", code: "invalid", message: "Unknown field." },
    ]);
  });

  it("treats null as absent", () => {
    const request = map(
      '{"merchant_reference":"r","amount":"1.000","currency":null,"items":[{"name":"n","quantity":1,"unit_price":"1.000","description":null}]}',
    );
    expect(request.currency).toBeUndefined();
    expect(request.items).toMatchObject([{ name: "n", description: "" }]);
    expect(validate('{"merchant_reference":null,"amount":"1.000"}').error?.violations).toEqual([
      { field: "merchant_reference", code: "required", message: "This field is required." },
    ]);
  });

  it("treats null as absent wherever the copy starts, and keeps an own __proto__ member when it copies", () => {
    const request = map(
      '{"merchant_reference":"r","amount":"1.000","items":[{"name":"a","quantity":1,"unit_price":"1.000"},{"name":"b","quantity":2,"unit_price":"2.000","description":null}],"order_id":null}',
    );
    expect(request.orderId).toBeUndefined();
    expect(request.items).toMatchObject([
      { name: "a", quantity: 1, description: "" },
      { name: "b", quantity: 2, description: "" },
    ]);
    expect(
      validate('{"merchant_reference":"r","__proto__":{"x":1},"amount":"1.000","currency":null}').error
        ?.violations,
    ).toEqual([{ field: "__proto__", code: "invalid", message: "Unknown field." }]);
  });

  it("answers a body that is not an object with 400, and too many items with one violation", () => {
    expect(validateBody([1])).toMatchObject({ error: { reason: "BAD_REQUEST" } });
    const items = `[${Array.from({ length: 5000 }, () => "{}").join(",")}]`;
    expect(
      validate(`{"merchant_reference":"r","amount":"1.000","items":${items},"x":1}`).error?.violations,
    ).toEqual([
      { field: "items", code: "invalid", message: "items must hold at most 100 line items." },
      { field: "x", code: "invalid", message: "Unknown field." },
    ]);
  });

  it("takes the metadata text from the last duplicate member, as JSON.parse does", () => {
    expect(
      map('{"metadata":{"a":1},"merchant_reference":"r","amount":"1.000","metadata":{"b":2.0}}').metadataJson,
    ).toBe('{"b":2.0}');
  });

  it("refuses metadata over 20 KiB before sending it anywhere", () => {
    const big = JSON.stringify({ k: "x".repeat(21 * 1024) });
    expect(() => map(`{"merchant_reference":"r","amount":"1.000","metadata":${big}}`)).toThrow(GatewayError);
  });
});
