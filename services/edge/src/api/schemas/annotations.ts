import type { TSchema } from "@sinclair/typebox";

/**
 * Keywords this gateway adds to its route schemas so that a schema failure reads exactly as the
 * spec's validation errors (7.2): the message for a malformed value, the code and message when a
 * JSON number is sent where a decimal string belongs, and what an unknown member is called.
 * Unknown `x-` keywords are allowed in OpenAPI 3.1 and ignored by validators.
 */
export interface ViolationAnnotations {
  "x-invalid"?: string;
  "x-invalid-number"?: { code: string; message: string };
  "x-unknown"?: string;
  /** An array over its maxItems: this message, and its elements are not looked at. */
  "x-too-many"?: string;
}

export type AnnotatedSchema = TSchema & ViolationAnnotations;
