import { Buffer } from "node:buffer";
import { type Body, isBody } from "./bytes.js";
import { anyMatches } from "./constant-time.js";
import { parseServiceSignature, parseStandardSignatures, parseTimestamp } from "./parse-headers.js";
import { type HeaderBag, headerValues, singleHeader } from "./read-header.js";
import { secretList, standardSigningKey } from "./secret.js";
import { signPayload, standardSignatureValue } from "./sign.js";

export const DEFAULT_TOLERANCE_SEC = 300;

export interface VerifyOptions {
  /** Largest accepted distance, in seconds, between the signed timestamp and now, past or future. */
  toleranceSec?: number;
  /** The current time in Unix seconds (for tests). */
  now?: () => number;
}

export type VerifyFailure =
  | "missing_header"
  | "malformed_header"
  | "timestamp_out_of_tolerance"
  | "no_matching_signature";

export type VerifyResult =
  | { ok: true; timestamp: number; webhookId?: string }
  | { ok: false; reason: VerifyFailure };

interface Checked {
  body: Body;
  secrets: string[];
  toleranceSec: number;
  now: number;
}

/**
 * Arguments the receiver's own code passes. A mistake there is a bug, so it throws a TypeError;
 * everything that comes from the request (headers, body content) only ever yields a result.
 */
function checkArguments(rawBody: unknown, secret: unknown, options: VerifyOptions | undefined): Checked {
  if (!isBody(rawBody)) {
    throw new TypeError(
      "rawBody must be the request body exactly as received (string or Uint8Array), not parsed JSON",
    );
  }
  const secrets = secretList(secret);
  const toleranceSec = options?.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (typeof toleranceSec !== "number" || !Number.isFinite(toleranceSec) || toleranceSec < 0) {
    throw new TypeError("toleranceSec must be a finite number of seconds, 0 or more");
  }
  const now = options?.now ? options.now() : Math.floor(Date.now() / 1000);
  if (typeof now !== "number" || !Number.isFinite(now)) {
    throw new TypeError("now() must return the current time in Unix seconds");
  }
  return { body: rawBody, secrets, toleranceSec, now };
}

function fail(reason: VerifyFailure): VerifyResult {
  return { ok: false, reason };
}

function withinTolerance(timestamp: number, c: Checked): boolean {
  return Math.abs(c.now - timestamp) <= c.toleranceSec;
}

function optionalId(headers: unknown, name: string): { webhookId?: string } {
  const id = singleHeader(headers, name);
  return id === undefined || id === "ambiguous" || id === "" ? {} : { webhookId: id };
}

/**
 * Verifies `X-Service-Signature` (docs/api/webhooks.md#signatures) over the raw body. Any `v1` made with any of the
 * given secrets is accepted, so a receiver can hold [new, old] while it rotates. The signature is
 * checked before the timestamp, so `timestamp_out_of_tolerance` only ever describes a genuine
 * message that is too old (a replay) or too far ahead (a skewed clock).
 */
export function verifyWebhook(
  rawBody: Body,
  headers: HeaderBag,
  secret: string | string[],
  options?: VerifyOptions,
): VerifyResult {
  const c = checkArguments(rawBody, secret, options);
  const values = headerValues(headers, "x-service-signature");
  if (values.length === 0) return fail("missing_header");
  const parsed = parseServiceSignature(values.join(","));
  if (!parsed) return fail("malformed_header");
  const expected = c.secrets.map((s) =>
    Buffer.from(signPayload({ secret: s, timestamp: parsed.timestamp, body: c.body }), "hex"),
  );
  if (!anyMatches(expected, parsed.signatures)) return fail("no_matching_signature");
  if (!withinTolerance(parsed.timestamp, c)) return fail("timestamp_out_of_tolerance");
  return { ok: true, timestamp: parsed.timestamp, ...optionalId(headers, "x-service-webhook-id") };
}

/** Verifies the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
export function verifyStandardWebhook(
  rawBody: Body,
  headers: HeaderBag,
  secret: string | string[],
  options?: VerifyOptions,
): VerifyResult {
  const c = checkArguments(rawBody, secret, options);
  const keys = c.secrets.map(standardSigningKey);
  const id = singleHeader(headers, "webhook-id");
  const timestampText = singleHeader(headers, "webhook-timestamp");
  const signatureValues = headerValues(headers, "webhook-signature");
  if (id === undefined || timestampText === undefined || signatureValues.length === 0) {
    return fail("missing_header");
  }
  if (id === "ambiguous" || id === "" || timestampText === "ambiguous") return fail("malformed_header");
  const timestamp = parseTimestamp(timestampText);
  const signatures = parseStandardSignatures(signatureValues.join(" "));
  if (timestamp === undefined || signatures.length === 0) return fail("malformed_header");
  const expected = keys.map((key) =>
    Buffer.from(standardSignatureValue({ key, id, timestamp, body: c.body }), "base64"),
  );
  if (!anyMatches(expected, signatures)) return fail("no_matching_signature");
  if (!withinTolerance(timestamp, c)) return fail("timestamp_out_of_tolerance");
  return { ok: true, timestamp, webhookId: id };
}
