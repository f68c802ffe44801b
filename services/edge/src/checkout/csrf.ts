import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";
import { pooledRandomBytes } from "@gateway/platform";

/** Name of the form field and of the cookie holding the browser's random nonce. */
export const CSRF_FIELD = "csrf";
export const CSRF_COOKIE = "gw_csrf";

const NONCE_BYTES = 32;
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Per-page CSRF tokens for the checkout forms (double-submit, signed): the browser holds a random
 * nonce in an HttpOnly SameSite=Lax cookie, and each form carries
 * HMAC-SHA256(secret, link token + nonce). A forged cross-site form can neither read the cookie
 * nor compute the HMAC, and a token minted for one checkout link is worthless on another.
 */
export class CsrfTokens {
  /**
   * Made once: on Node 24 an HMAC keyed with raw bytes costs about six times one keyed with this
   * (docs/decisions.md#hmac-keys-are-made-once).
   */
  private readonly key: KeyObject;

  constructor(secret: string) {
    if (secret === "") throw new Error("the CSRF secret must not be empty");
    this.key = createSecretKey(Buffer.from(secret, "utf8"));
  }

  /**
   * A fresh nonce for the cookie: 32 random bytes, base64url. A buyer's first page needs one, and
   * a CSPRNG draw of its own cost a tenth of the page's CPU, so the bytes come from the pool ids
   * are drawn from (docs/decisions.md#small-random-draws-come-from-one-pooled-draw).
   */
  static newNonce(): string {
    const bytes = pooledRandomBytes(NONCE_BYTES);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
  }

  static isNonce(value: string | undefined): value is string {
    return value !== undefined && NONCE.test(value);
  }

  tokenFor(linkToken: string, nonce: string): string {
    return createHmac("sha256", this.key).update(`${linkToken}\n${nonce}`).digest("base64url");
  }

  /** Constant-time check of a submitted token against the cookie's nonce. */
  verify(linkToken: string, nonce: string | undefined, submitted: string | undefined): boolean {
    if (!CsrfTokens.isNonce(nonce) || submitted === undefined) return false;
    const expected = Buffer.from(this.tokenFor(linkToken, nonce), "utf8");
    const given = Buffer.from(submitted, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
