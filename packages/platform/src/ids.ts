import { createHash, randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random bytes drawn from the CSPRNG at a time: one draw per id cost more than the id's own work. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomPoolOffset = 0;

/** The next unused byte of the pool; each byte is handed out once, then the pool is drawn again. */
function nextRandomByte(): number {
  if (randomPoolOffset >= randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomPoolOffset = 0;
  }
  return randomPool[randomPoolOffset++]!;
}

/** `n` bytes from the CSPRNG through the same pool: for small draws made per request. */
export function pooledRandomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = nextRandomByte();
  return bytes;
}

/** Where a text's character codes are written before they become one string. */
let textBytes = Buffer.alloc(64);

/**
 * `head` followed by `length` characters from `nextCharCode`, built as one flat string.
 * Appending character by character would leave a chain of some twenty string pieces behind each
 * id and token, which stores in memory keep as long as the record
 * (docs/decisions.md#stores-in-memory-copy-records-by-their-shape).
 */
function flatText(head: string, length: number, nextCharCode: () => number): string {
  const size = head.length + length;
  if (textBytes.length < size) textBytes = Buffer.alloc(Math.max(size, textBytes.length * 2));
  textBytes.write(head, 0, "latin1");
  for (let at = head.length; at < size; at++) textBytes[at] = nextCharCode();
  return textBytes.toString("latin1", 0, size);
}

/** A random base62 character's code, without modulo bias: bytes >= 248 are rejected. */
function randomBase62Code(): number {
  for (;;) {
    const byte = nextRandomByte();
    if (byte < 248) return ALPHABET.charCodeAt(byte % 62);
  }
}

/**
 * Random base62 text from a CSPRNG, without modulo bias.
 * 22 characters carry ~131 bits, enough for unguessable ids and link tokens.
 */
export function randomBase62(length: number): string {
  return flatText("", length, randomBase62Code);
}

/** Public id prefixes. Each names one kind of object, Stripe-style. */
export type IdPrefix = "ps" | "pa" | "evt" | "whd" | "re" | "mer" | "key" | "chk" | "usr" | "inv" | "aud";

/**
 * A prefixed public id: `ps_` + 24 base62 characters. Not time-ordered on purpose: ordering
 * comes from created_at plus the id as a tie-breaker, never from guessable ids.
 */
export function newId(prefix: IdPrefix): string {
  return flatText(`${prefix}_`, 24, randomBase62Code);
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
  return flatText(`${prefix}_`, 24, () => {
    const code = ALPHABET.charCodeAt(Number(value % 62n));
    value /= 62n;
    return code;
  });
}
