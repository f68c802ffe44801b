import { MAX_LINE_ITEMS } from "@gateway/platform";
import { type Static, Type } from "@sinclair/typebox";
import { Metadata, NullableString, pageOf, QueryString, Timestamp } from "./common.js";

const DECIMAL_STRING = "Must be a decimal string.";
const amountNotNumber = {
  code: "invalid_type",
  message: 'Must be a decimal string such as "12.500", not a JSON number.',
};
const text = (description: string) => Type.Optional(Type.String({ description }));

export const LineItemInput = Type.Object(
  {
    name: Type.String({ description: "At most 200 characters." }),
    quantity: Type.Integer({
      minimum: -2147483648,
      maximum: 2147483647,
      "x-invalid": "Must be an integer.",
      description: "1 to 10,000.",
    }),
    unit_price: Type.String({
      "x-invalid": 'Must be a decimal string such as "4.500".',
      description: "Decimal string in the session's currency.",
    }),
    description: text("At most 500 characters."),
  },
  { additionalProperties: false, "x-invalid": "Must be an object with name, quantity and unit_price." },
);

/**
 * The create body (docs/api/sessions.md#create-a-session). The schema checks the JSON shape (types, required and
 * unknown members, list and document sizes); `null` is the same as absent. Meaning (lengths,
 * formats, amounts in the currency, exchange rates) is the sessions service's.
 */
export const CreateSessionBody = Type.Object(
  {
    merchant_reference: Type.String({
      description:
        "Your unique reference for this order (1-200 characters). A repeat with the same meaning returns the first session (200).",
    }),
    amount: Type.String({
      "x-invalid": DECIMAL_STRING,
      "x-invalid-number": amountNotNumber,
      description: "Decimal string: 3 decimals for TND, 2 for EUR; at most 999999.999 TND after conversion.",
      examples: ["125.500"],
    }),
    currency: text(
      "ISO 4217 code; TND when absent. A foreign currency needs an exchange rate on the account.",
    ),
    order_id: text("At most 100 characters."),
    description: text("At most 500 characters."),
    buyer_first_name: text("At most 100 characters."),
    buyer_last_name: text("At most 100 characters."),
    buyer_email: text("An e-mail address."),
    buyer_phone: text("A phone number such as +216 71 000 000."),
    return_url: text("Absolute http(s) URL (https in live mode); where the buyer goes after paying."),
    cancel_url: text("Absolute http(s) URL (https in live mode); where the buyer goes on cancel."),
    webhook_url: text(
      "Absolute http(s) URL without #fragment (https in live mode); receives this session's events.",
    ),
    items: Type.Optional(
      Type.Array(LineItemInput, {
        maxItems: MAX_LINE_ITEMS,
        "x-invalid": "Must be an array of line items.",
        "x-too-many": `items must hold at most ${MAX_LINE_ITEMS} line items.`,
      }),
    ),
    metadata: Type.Optional(Metadata),
    max_attempts: Type.Optional(
      Type.Integer({
        minimum: -2147483648,
        maximum: 2147483647,
        "x-invalid": "Must be an integer.",
        description: "1 to 10; 3 when absent.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBody>;

const SessionStatus = Type.Union(
  ["CREATED", "PROCESSING", "SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"].map((s) => Type.Literal(s)),
  { description: "Spec 3." },
);

export const Attempt = Type.Object(
  {
    id: Type.String(),
    attempt_number: Type.Integer(),
    status: Type.Union([Type.String(), Type.Null()]),
    card_brand: NullableString(),
    card_last_four: NullableString(),
    failure_code: NullableString(),
    fee_amount: NullableString(),
    net_amount: NullableString(),
    created_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

/** The session detail of docs/api/sessions.md#the-session-object, in its field order. */
export const Session = Type.Object(
  {
    id: Type.String(),
    merchant_reference: Type.String(),
    order_number: Type.String(),
    order_id: NullableString(),
    amount: Type.String({ description: "In TND, the settlement currency." }),
    currency: NullableString(),
    original: Type.Union([
      Type.Object(
        { amount: Type.String(), currency: Type.String(), rate: Type.String() },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    description: NullableString(),
    items: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          quantity: Type.Integer(),
          unit_price: Type.String(),
          description: NullableString(),
        },
        { additionalProperties: false },
      ),
    ),
    status: Type.Union([SessionStatus, Type.Null()]),
    livemode: Type.Boolean(),
    buyer_first_name: NullableString(),
    buyer_last_name: NullableString(),
    buyer_email: NullableString(),
    buyer_phone: NullableString(),
    metadata: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    return_url: NullableString(),
    cancel_url: NullableString(),
    webhook_url: NullableString(),
    max_attempts: Type.Integer(),
    checkout_url: NullableString("Null once the session can no longer be paid."),
    expires_at: Type.Union([Timestamp, Type.Null()]),
    completed_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Type.Union([Timestamp, Type.Null()]),
    attempts: Type.Array(Attempt),
  },
  { additionalProperties: false },
);

export const SessionList = pageOf(Session);

export const ListSessionsQuery = Type.Object(
  {
    limit: QueryString("1 to 100; 20 when absent."),
    starting_after: QueryString("The `next_cursor` of the previous page."),
    status: QueryString("Only sessions in this status."),
    created_gte: QueryString("RFC 3339: created at or after."),
    created_lte: QueryString("RFC 3339: created at or before."),
    merchant_reference: QueryString("Only the session with this reference."),
  },
  // Unknown names and the values' meaning are judged by the list mapping, all together.
  { additionalProperties: true },
);

export const CheckoutLink = Type.Object(
  { checkout_url: Type.String({ format: "uri" }), expires_at: Timestamp },
  { additionalProperties: false },
);
