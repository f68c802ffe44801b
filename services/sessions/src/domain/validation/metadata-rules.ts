import { type FieldViolation, MAX_METADATA_BYTES } from "@gateway/platform";
import { violation } from "./field-rules.js";

/**
 * `metadata` arrives as the exact JSON text the merchant sent and is stored as that text, so it
 * round-trips byte for byte. It must be a JSON object.
 */
export function checkMetadata(field: string, json: string | undefined): FieldViolation | undefined {
  if (json === undefined) return undefined;
  if (json.trim() === "") return violation(field, "invalid", `${field} must be a JSON object.`);
  if (Buffer.byteLength(json, "utf8") > MAX_METADATA_BYTES) {
    return violation(field, "invalid", `${field} must be at most ${MAX_METADATA_BYTES} bytes of JSON.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return violation(field, "invalid", `${field} must be a JSON object.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return violation(field, "invalid", `${field} must be a JSON object.`);
  }
  return undefined;
}
