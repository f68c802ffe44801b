import { type Body, bodyBytes, isBody } from "./bytes.js";
import type { HeaderBag } from "./read-header.js";
import { secretList, standardSigningKey } from "./secret.js";
import { standardWebhookSignature } from "./sign.js";
import { type VerifyFailure, type VerifyOptions, verifyStandardWebhook } from "./verify.js";

/**
 * The body of every gateway webhook (docs/api/webhooks.md#the-event-body): `event` is the type
 * (`session.succeeded`, `refund.failed`, …), `sequence` orders one session's events (session
 * events only), `data` is the session or refund as the event saw it.
 */
export interface GatewayWebhookEvent<Data = Record<string, unknown>> {
  id: string;
  event: string;
  created_at: string;
  sequence?: number;
  data: Data;
}

/** Why `Webhook.verify` refused a message: a header problem, or a signed body that is not JSON. */
export type WebhookVerificationFailure = VerifyFailure | "invalid_json";

const MESSAGES: Record<WebhookVerificationFailure, string> = {
  missing_header: "Missing webhook-id, webhook-timestamp or webhook-signature header",
  malformed_header: "Malformed webhook-id, webhook-timestamp or webhook-signature header",
  no_matching_signature: "No matching signature (wrong secret, or the body was changed or re-serialised)",
  timestamp_out_of_tolerance: "Message timestamp is outside the tolerance (a replay, or a skewed clock)",
  invalid_json: "The signed body is not a UTF-8 JSON document",
};

/**
 * Thrown by `Webhook.verify`. The name matches the Standard Webhooks and Svix libraries, so code
 * written against them keeps catching it; `reason` says which check failed, for logs and metrics.
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure) {
    super(MESSAGES[reason]);
    this.reason = reason;
  }
}

function unixSeconds(timestamp: Date | number): number {
  if (timestamp instanceof Date) {
    const ms = timestamp.getTime();
    if (!Number.isFinite(ms)) throw new TypeError("The webhook timestamp is an invalid Date");
    return Math.floor(ms / 1000);
  }
  return timestamp;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function parseJson(body: Body): unknown {
  try {
    return JSON.parse(typeof body === "string" ? body : UTF8.decode(bodyBytes(body)));
  } catch {
    throw new WebhookVerificationError("invalid_json");
  }
}

/**
 * The Standard Webhooks interface (`new Webhook(secret).verify(body, headers)`, `sign(id, time,
 * body)`), as in the `standardwebhooks` and `svix` packages, so receivers can switch between them
 * without touching their handler. Beyond them: several secrets at once (the current one and the
 * one being rotated out), a configurable tolerance and clock, and a typed failure reason.
 */
export class Webhook {
  readonly #secrets: string[];
  readonly #options: VerifyOptions;

  constructor(secret: string | string[], options: VerifyOptions = {}) {
    this.#secrets = secretList(secret);
    // A secret that cannot be decoded is a configuration mistake: fail at start-up, not per request.
    for (const s of this.#secrets) standardSigningKey(s);
    this.#options = { ...options };
  }

  /**
   * Checks `webhook-id`, `webhook-timestamp` and `webhook-signature` against the raw body and
   * returns the parsed event. Throws `WebhookVerificationError` for anything wrong in the request,
   * and a TypeError only for mistakes in the calling code (parsed JSON instead of the raw body).
   */
  verify<T = unknown>(body: Body, headers: HeaderBag): T {
    const result = verifyStandardWebhook(body, headers, this.#secrets, this.#options);
    if (!result.ok) throw new WebhookVerificationError(result.reason);
    return parseJson(body) as T;
  }

  /**
   * The `webhook-signature` value for a message: `v1,<base64>`, one space-separated entry per
   * secret this instance holds. `timestamp` is a Date or Unix seconds.
   */
  sign(msgId: string, timestamp: Date | number, body: Body): string {
    if (!isBody(body)) throw new TypeError("body must be the exact string or bytes that will be sent");
    return standardWebhookSignature({
      id: msgId,
      timestamp: unixSeconds(timestamp),
      body,
      secrets: this.#secrets,
    });
  }
}
