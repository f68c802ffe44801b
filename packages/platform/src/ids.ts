import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random base62 text from a CSPRNG, without modulo bias (bytes >= 248 are rejected).
 * 22 characters carry ~131 bits, enough for unguessable ids and link tokens.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Public id prefixes. Each names one kind of object, Stripe-style. */
export type IdPrefix = "ps" | "pa" | "evt" | "whd" | "re" | "mer" | "key" | "chk";

/**
 * A prefixed public id: `ps_` + 24 base62 characters. Not time-ordered on purpose: ordering
 * comes from created_at plus the id as a tie-breaker, never from guessable ids.
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export type IdGenerator = (prefix: IdPrefix) => string;
