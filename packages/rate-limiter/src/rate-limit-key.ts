import type { BudgetName } from "./rate-limit-policy.js";

const MAX_MERCHANT_ID_LENGTH = 255;

/**
 * Store key of one budget: `rl.<budget>.<merchantId>.<live|test>`. NATS KV keys allow only
 * `[-/_=.a-zA-Z0-9]` and `.` separates tokens, so the merchant id is escaped: characters
 * other than `[A-Za-z0-9_-]` become `=HH` per UTF-8 byte. Real ids (`mer_` + base62) pass
 * unchanged, and the escaping is injective, so no two merchants can share a key.
 */
export function rateLimitKey(budget: BudgetName, merchantId: string, livemode: boolean): string {
  if (typeof merchantId !== "string" || merchantId.length === 0) {
    throw new TypeError("rate limiter: merchantId must be a non-empty string");
  }
  if (merchantId.length > MAX_MERCHANT_ID_LENGTH) {
    throw new TypeError(`rate limiter: merchantId is longer than ${MAX_MERCHANT_ID_LENGTH} characters`);
  }
  return `rl.${budget}.${escapeKeyToken(merchantId)}.${livemode ? "live" : "test"}`;
}

export function escapeKeyToken(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/gu, (ch) =>
    Array.from(
      Buffer.from(ch, "utf8"),
      (byte) => `=${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    ).join(""),
  );
}
