import { createHmac } from "node:crypto";
import { type Body, prefixed } from "./bytes.js";
import { assertSecret, secretList, standardSigningKey } from "./secret.js";

function assertTimestamp(timestamp: unknown): asserts timestamp is number {
  if (typeof timestamp !== "number" || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError("A webhook timestamp must be a whole number of Unix seconds");
  }
}

/**
 * The `v1` signature of 6.4: lowercase hex of HMAC-SHA256 over `<timestamp>.<body bytes>`.
 * The key is the whole secret string, `whsec_` prefix included, as UTF-8 (as Stripe does): a
 * receiver only has to paste the secret it was shown, with no decoding step to get wrong.
 */
export function signPayload(o: { secret: string; timestamp: number; body: Body }): string {
  assertSecret(o.secret);
  assertTimestamp(o.timestamp);
  return createHmac("sha256", o.secret)
    .update(prefixed(`${o.timestamp}.`, o.body))
    .digest("hex");
}

/**
 * `X-Service-Signature`: `t=<timestamp>,v1=<hex>` with one `v1` per secret. During a rotation
 * overlap the list is [new, old], so receivers still holding the old secret keep verifying.
 */
export function buildSignatureHeader(o: { timestamp: number; body: Body; secrets: string[] }): string {
  assertTimestamp(o.timestamp);
  const signatures = secretList(o.secrets).map(
    (secret) => `v1=${signPayload({ secret, timestamp: o.timestamp, body: o.body })}`,
  );
  return [`t=${o.timestamp}`, ...signatures].join(",");
}

/** One Standard Webhooks signature (base64, without the `v1,` prefix). */
export function standardSignatureValue(o: {
  key: Uint8Array;
  id: string;
  timestamp: number;
  body: Body;
}): string {
  return createHmac("sha256", o.key)
    .update(prefixed(`${o.id}.${o.timestamp}.`, o.body))
    .digest("base64");
}

/**
 * `webhook-signature` of Standard Webhooks (standardwebhooks.com): `v1,<base64>` per secret,
 * space-separated, HMAC-SHA256 over `<id>.<timestamp>.<body>` keyed with the base64-decoded part
 * of the secret after `whsec_`. Lets receivers use any Standard Webhooks library.
 */
export function standardWebhookSignature(o: {
  id: string;
  timestamp: number;
  body: Body;
  secrets: string[];
}): string {
  if (typeof o.id !== "string" || o.id.length === 0) {
    throw new TypeError("A Standard Webhooks message id must be a non-empty string");
  }
  assertTimestamp(o.timestamp);
  return secretList(o.secrets)
    .map(
      (secret) =>
        `v1,${standardSignatureValue({ key: standardSigningKey(secret), id: o.id, timestamp: o.timestamp, body: o.body })}`,
    )
    .join(" ");
}
