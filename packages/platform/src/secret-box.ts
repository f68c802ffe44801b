import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Encryption of secrets at rest (terminal passwords, webhook secrets): AES-256-GCM, a fresh random 12-byte IV
 * per seal, the 16-byte tag kept beside the ciphertext. `keyId` names the key a secret was
 * sealed with, so a box holding the current key and some previous ones opens what any of them
 * sealed (key rotation) and says clearly when none of them did.
 */
export interface SealedSecret {
  keyId: string;
  /** Base64 of the 12-byte IV. */
  iv: string;
  /** Base64 of the 16-byte GCM authentication tag. */
  tag: string;
  /** Base64 of the AES-256-GCM ciphertext of the UTF-8 plaintext. */
  ciphertext: string;
}

export interface SecretBox {
  /** The id of the key new secrets are sealed with. */
  readonly keyId: string;
  /**
   * `context` is authenticated but not stored (GCM additional data): a sealed secret opens only
   * with the context it was sealed for, so it cannot be copied onto another record.
   */
  seal(plaintext: string, context?: string): SealedSecret;
  /** Throws SecretUnreadableError when the key is unknown or the data or context do not match. */
  open(sealed: SealedSecret, context?: string): string;
}

/** A sealed secret that cannot be opened. Its message never contains any part of the secret. */
export class SecretUnreadableError extends Error {
  override readonly name = "SecretUnreadableError";
}

export const SECRETS_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = "aes-256-gcm";
// Standard base64 of 32 bytes: 43 characters and one "=" (the padding may be left out).
const KEY_TEXT_PATTERN = /^[A-Za-z0-9+/]{43}=?$/;

/** A new random key, e.g. for a demo run without GATEWAY_SECRETS_KEY. */
export function generateSecretsKey(): Buffer {
  return randomBytes(SECRETS_KEY_BYTES);
}

/**
 * Reads a key given as base64 of 32 bytes (what `openssl rand -base64 32` prints). The error
 * says what is expected and never repeats the text, which may be a real key with a typo.
 */
export function parseSecretsKey(text: string, variable = "GATEWAY_SECRETS_KEY"): Buffer {
  const trimmed = text.trim();
  const key = KEY_TEXT_PATTERN.test(trimmed) ? Buffer.from(trimmed, "base64") : undefined;
  if (!key || key.length !== SECRETS_KEY_BYTES) {
    throw new Error(
      `${variable} must be the base64 encoding of exactly ${SECRETS_KEY_BYTES} random bytes (generate one with: openssl rand -base64 32).`,
    );
  }
  return key;
}

/** A comma-separated list of keys (GATEWAY_SECRETS_PREVIOUS_KEYS). */
export function parseSecretsKeyList(text: string, variable = "GATEWAY_SECRETS_PREVIOUS_KEYS"): Buffer[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => parseSecretsKey(part, variable));
}

/**
 * A short public name for a key: a truncated SHA-256 of it (with a label, so the digest is of
 * no use anywhere else). Learning it tells nothing about a 256-bit random key.
 */
export function secretsKeyId(key: Uint8Array): string {
  return createHash("sha256").update("gateway secret box key id\n").update(key).digest("hex").slice(0, 16);
}

function requireKeyLength(key: Uint8Array): void {
  if (key.length !== SECRETS_KEY_BYTES)
    throw new Error(`a secret box key must be ${SECRETS_KEY_BYTES} bytes, got ${key.length}`);
}

/** A box that seals with `current` and opens with `current` or any of `previous`. */
export function createSecretBox(current: Uint8Array, previous: readonly Uint8Array[] = []): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const key of [current, ...previous]) {
    requireKeyLength(key);
    const id = secretsKeyId(key);
    if (!keys.has(id)) keys.set(id, Buffer.from(key));
  }
  const currentId = secretsKeyId(current);
  const currentKey = keys.get(currentId)!;

  return {
    keyId: currentId,

    seal(plaintext, context = "") {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, currentKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return {
        keyId: currentId,
        iv: iv.toString("base64"),
        tag: cipher.getAuthTag().toString("base64"),
        ciphertext: ciphertext.toString("base64"),
      };
    },

    open(sealed, context = "") {
      const key = keys.get(sealed.keyId);
      if (!key) {
        throw new SecretUnreadableError(
          `secret sealed with key ${sealed.keyId}, which is not configured (configured: ${[...keys.keys()].join(", ")}); ` +
            "was GATEWAY_SECRETS_KEY changed without listing the old key in GATEWAY_SECRETS_PREVIOUS_KEYS?",
        );
      }
      const iv = Buffer.from(sealed.iv, "base64");
      const tag = Buffer.from(sealed.tag, "base64");
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
        throw new SecretUnreadableError(`sealed secret (key ${sealed.keyId}) has a malformed IV or tag`);
      }
      try {
        const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(tag);
        return Buffer.concat([
          decipher.update(Buffer.from(sealed.ciphertext, "base64")),
          decipher.final(),
        ]).toString("utf8");
      } catch (err) {
        // GCM refuses anything altered (ciphertext, IV, tag or context): never a wrong plaintext.
        throw new SecretUnreadableError(
          `sealed secret (key ${sealed.keyId}) failed authentication: altered, or sealed for another record`,
          {
            cause: err,
          },
        );
      }
    },
  };
}
