import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Same scheme and stored shape as services/accounts/src/domain/secret-box.ts (terminal
// passwords), written here so the two services do not depend on each other; to be moved into
// one shared package later (same key, same key ids, same sealed format).

/** A secret encrypted with AES-256-GCM; every part base64. */
export interface SealedSecret {
  /** Names the key it was sealed with, so several keys can be configured during key rotation. */
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

export interface SecretBox {
  readonly keyId: string;
  /** `context` is authenticated, not stored: the sealed value opens only for the record it was sealed for. */
  seal(plaintext: string, context: string): SealedSecret;
  /** Throws SecretUnreadableError when no configured key opens it or it was altered. */
  open(sealed: SealedSecret, context: string): string;
}

/** A stored secret that cannot be opened. The message never holds any part of the secret. */
export class SecretUnreadableError extends Error {
  override readonly name = "SecretUnreadableError";
}

export const SECRETS_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = "aes-256-gcm";
const KEY_TEXT = /^[A-Za-z0-9+/]{43}=?$/;

/** Reads a key given as base64 of 32 bytes (`openssl rand -base64 32`); the error never repeats the text. */
export function parseSecretsKey(text: string, variable = "GATEWAY_SECRETS_KEY"): Buffer {
  const trimmed = text.trim();
  const key = KEY_TEXT.test(trimmed) ? Buffer.from(trimmed, "base64") : undefined;
  if (!key || key.length !== SECRETS_KEY_BYTES) {
    throw new Error(`${variable} must be the base64 encoding of exactly ${SECRETS_KEY_BYTES} random bytes (generate one with: openssl rand -base64 32).`);
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

/** A short public name of a key: a labelled, truncated SHA-256 (tells nothing about a random 256-bit key). */
export function secretsKeyId(key: Uint8Array): string {
  return createHash("sha256").update("gateway secret box key id\n").update(key).digest("hex").slice(0, 16);
}

/** Seals with `current`; opens what `current` or any of `previous` sealed. */
export function createSecretBox(current: Uint8Array, previous: readonly Uint8Array[] = []): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const key of [current, ...previous]) {
    if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secret box key must be ${SECRETS_KEY_BYTES} bytes, got ${key.length}`);
    const id = secretsKeyId(key);
    if (!keys.has(id)) keys.set(id, Buffer.from(key));
  }
  const currentId = secretsKeyId(current);
  const currentKey = keys.get(currentId)!;

  return {
    keyId: currentId,
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, currentKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return { keyId: currentId, iv: iv.toString("base64"), tag: cipher.getAuthTag().toString("base64"), ciphertext: ciphertext.toString("base64") };
    },
    open(sealed, context) {
      const key = keys.get(sealed.keyId);
      if (!key) {
        throw new SecretUnreadableError(
          `secret sealed with key ${sealed.keyId}, which is not configured; was GATEWAY_SECRETS_KEY changed without listing the old key in GATEWAY_SECRETS_PREVIOUS_KEYS?`,
        );
      }
      const iv = Buffer.from(sealed.iv, "base64");
      const tag = Buffer.from(sealed.tag, "base64");
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretUnreadableError(`sealed secret (key ${sealed.keyId}) is malformed`);
      try {
        const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "base64")), decipher.final()]).toString("utf8");
      } catch (err) {
        throw new SecretUnreadableError(`sealed secret (key ${sealed.keyId}) failed authentication: altered, or sealed for another record`, { cause: err });
      }
    },
  };
}
