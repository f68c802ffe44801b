import { Buffer } from "node:buffer";

const UNIX_SECONDS = /^\d{1,15}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

export interface ParsedSignatures {
  timestamp: number;
  signatures: Buffer[];
}

export function parseTimestamp(text: string): number | undefined {
  return UNIX_SECONDS.test(text) ? Number(text) : undefined;
}

/**
 * `t=<timestamp>,v1=<hex>[,v1=<hex>…]`. Unknown keys are skipped (room for later schemes), a
 * `v1` that is not 64 hex digits cannot match and is skipped too; without one `t` and at least
 * one usable `v1` the header is malformed.
 */
export function parseServiceSignature(value: string): ParsedSignatures | undefined {
  let timestamp: number | undefined;
  let timestamps = 0;
  const signatures: Buffer[] = [];
  for (const part of value.split(",")) {
    const item = part.trim();
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const key = item.slice(0, eq);
    const text = item.slice(eq + 1);
    if (key === "t") {
      timestamps += 1;
      timestamp = parseTimestamp(text);
    } else if (key === "v1" && HEX_SHA256.test(text)) {
      signatures.push(Buffer.from(text, "hex"));
    }
  }
  if (timestamps !== 1 || timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** `webhook-signature` of Standard Webhooks: space-separated `v1,<base64>`; other versions skipped. */
export function parseStandardSignatures(value: string): Buffer[] {
  const signatures: Buffer[] = [];
  for (const entry of value.split(/\s+/)) {
    // Node joins repeated headers with ", ", which leaves a trailing comma on an entry.
    const item = entry.replace(/,+$/, "");
    const comma = item.indexOf(",");
    if (comma <= 0 || item.slice(0, comma) !== "v1") continue;
    const text = item.slice(comma + 1);
    if (BASE64_SHA256.test(text)) signatures.push(Buffer.from(text, "base64"));
  }
  return signatures;
}
