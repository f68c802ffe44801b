import { Type } from "@sinclair/typebox";
import "./formats.js";

export const SessionIdParams = Type.Object(
  {
    session_id: Type.String({
      description: "The session's id (`ps_…`).",
      examples: ["ps_8f2c1a9b4d7e6f30a1b2c3d4"],
    }),
  },
  { additionalProperties: false },
);

/** A body that must be absent, empty, or `{}` (cancel, checkout link). */
export const NoBody = Type.Object(
  {},
  { additionalProperties: false, "x-no-body": true, description: "No body, an empty body, or `{}`." },
);

export const FieldViolation = Type.Object(
  {
    field: Type.String({ description: "The member's path, such as `items[0].unit_price`." }),
    code: Type.String({
      description:
        "A code of docs/api/errors.md#validation-errors: required, invalid, invalid_type, invalid_format, invalid_precision, invalid_value, amount_too_large, currency_unsupported.",
    }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/** RFC 9457 problem document (docs/api/errors.md#problem-types). */
export const Problem = Type.Object(
  {
    type: Type.String({
      format: "uri",
      description: "`{errors_url}/<suffix>`; branch on this and the status.",
    }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.Optional(Type.String()),
    errors: Type.Optional(
      Type.Array(FieldViolation, { description: "validation-error only: the first 50 violations." }),
    ),
    errors_omitted: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "validation-error only: how many violations were left out of `errors`.",
      }),
    ),
    existing_session_id: Type.Optional(
      Type.String({ description: "conflict only: the session the merchant_reference belongs to." }),
    ),
  },
  { additionalProperties: true },
);

/** A JSON object with anything in it; sent and answered byte for byte. */
export const Metadata = Type.Object(
  {},
  {
    additionalProperties: true,
    "x-invalid": "Must be a JSON object.",
    description: "Any JSON object of at most 20 KiB, answered byte for byte as first sent.",
  },
);

export const Timestamp = Type.String({ format: "date-time", description: "RFC 3339, UTC." });

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
export const NullableString = (description?: string) =>
  nullable(Type.String(description === undefined ? {} : { description }));

/** `{data, has_more, next_cursor}` of every list. */
export const pageOf = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description: "Pass as `starting_after` for the next page; null on the last.",
      }),
    },
    { additionalProperties: false },
  );

/** A query parameter given at most once. */
export const QueryString = (description: string, extra: Record<string, unknown> = {}) =>
  Type.Optional(Type.String({ description, "x-invalid": "Give this parameter once.", ...extra }));
