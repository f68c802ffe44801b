import type { FieldViolation } from "@gateway/platform";

/** The violations the edge itself finds: JSON types, missing required members, unknown members. */
export const violation = {
  required: (field: string): FieldViolation => ({
    field,
    code: "required",
    message: "This field is required.",
  }),
  unknown: (field: string): FieldViolation => ({ field, code: "invalid", message: "Unknown field." }),
  invalid: (field: string, message: string): FieldViolation => ({ field, code: "invalid", message }),
  notString: (field: string): FieldViolation => ({ field, code: "invalid", message: "Must be a string." }),
  amountNotString: (field: string): FieldViolation => ({
    field,
    code: "invalid_type",
    message: 'Must be a decimal string such as "12.500", not a JSON number.',
  }),
};

/** A JSON number that is an integer within protobuf int32. */
export function isInt32(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
}
