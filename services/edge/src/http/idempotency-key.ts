import type { FieldViolation } from "@gateway/platform";
import { violation } from "../mapping/field-violations.js";

/** Longest Idempotency-Key accepted (as Stripe's). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const VISIBLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The `Idempotency-Key` request header: absent, a usable key, or a violation (empty, too long,
 * repeated, or not printable ASCII), reported with the body's violations in one 422.
 */
export function readIdempotencyKey(header: string | string[] | undefined): {
  key?: string;
  violation?: FieldViolation;
} {
  if (header === undefined) return {};
  const message = `Must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, sent once.`;
  if (Array.isArray(header)) return { violation: violation.invalid("Idempotency-Key", message) };
  const key = header.trim();
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !VISIBLE_ASCII.test(key)) {
    return { violation: violation.invalid("Idempotency-Key", message) };
  }
  return { key };
}
