import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A new endpoint secret: `whsec_` followed by the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new TypeError("A webhook secret must be a non-empty string (whsec_...)");
  }
}

/** Secrets as a non-empty list: the current one first, then any still inside a rotation window. */
export function secretList(secrets: unknown): string[] {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) throw new TypeError("At least one webhook secret is needed");
  for (const secret of list) assertSecret(secret);
  return [...new Set(list as string[])];
}

/**
 * The HMAC key of the Standard Webhooks scheme: the base64 text after `whsec_`, decoded. (The
 * X-Service-Signature scheme keys with the whole secret string instead, as Stripe does.)
 */
export function standardSigningKey(secret: string): Buffer {
  assertSecret(secret);
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64.test(encoded)) {
    throw new TypeError("A Standard Webhooks secret must be whsec_ followed by base64");
  }
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new TypeError("A Standard Webhooks secret must not be empty");
  return key;
}
