import { createHash, randomBytes } from "node:crypto";

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
export type IdPrefix = "ps" | "pa" | "evt" | "whd" | "re" | "mer" | "key" | "chk" | "usr" | "inv" | "aud";

/**
 * A prefixed public id: `ps_` + 24 base62 characters. Not time-ordered on purpose: ordering
 * comes from created_at plus the id as a tie-breaker, never from guessable ids.
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export type IdGenerator = (prefix: IdPrefix) => string;

/**
 * A prefixed id computed from `seed` (same shape as newId: prefix + 24 base62 characters).
 * Facts that may be recorded twice (a write repeated after a crash, two replicas racing on one
 * session) get the same id both times, so unique indexes and event-id deduplication turn the
 * repeat into a no-op instead of a second record or a second webhook.
 */
export function derivedId(prefix: IdPrefix, seed: string): string {
  const digest = createHash("sha256").update(seed).digest();
  let value = BigInt(`0x${digest.toString("hex")}`);
  let text = "";
  for (let i = 0; i < 24; i++) {
    text += ALPHABET[Number(value % 62n)];
    value /= 62n;
  }
  return `${prefix}_${text}`;
}
