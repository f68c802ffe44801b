import { createHash } from "node:crypto";
import type { IdPrefix } from "@gateway/platform";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A prefixed id computed from `seed` (same shape as newId: prefix + 24 base62 characters).
 * Writes that may be repeated after a crash or a redelivered event (the first attempt of an
 * event, the retry of a failed attempt) use it, so the unique id index turns the repeat into a
 * no-op instead of a second record.
 */
export function derivedId(prefix: IdPrefix, seed: string): string {
  const digest = createHash("sha256").update(`gateway webhooks derived id\n${seed}`).digest();
  let value = BigInt(`0x${digest.toString("hex")}`);
  let text = "";
  for (let i = 0; i < 24; i++) {
    text += ALPHABET[Number(value % 62n)];
    value /= 62n;
  }
  return `${prefix}_${text}`;
}
