import { type Static, Type } from "@sinclair/typebox";
import { Metadata } from "./common.js";

/** The refund body (docs/api/refunds.md#create-a-refund); `null` is the same as absent. */
export const CreateRefundBody = Type.Object(
  {
    refund_type: Type.Union([Type.Literal("FULL"), Type.Literal("PARTIAL")], {
      "x-invalid": 'Must be "FULL" or "PARTIAL".',
    }),
    amount: Type.Optional(
      Type.String({
        "x-invalid": "Must be a decimal string.",
        "x-invalid-number": {
          code: "invalid_type",
          message: 'Must be a decimal string such as "12.500", not a JSON number.',
        },
        description: "PARTIAL only: the amount in TND.",
      }),
    ),
    reason: Type.Optional(Type.String()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateRefundBody = Static<typeof CreateRefundBody>;

export const RefundResult = Type.Object(
  {
    refund_id: Type.String(),
    refunded_amount: Type.String(),
    automated_refund: Type.Boolean(),
    epg_error_message: Type.Optional(
      Type.String({ description: "Only when the acquirer did not confirm the refund automatically." }),
    ),
  },
  { additionalProperties: false },
);
