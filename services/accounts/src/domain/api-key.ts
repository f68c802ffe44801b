import { timingSafeEqual } from "node:crypto";
import { randomBase62, sha256Hex } from "@gateway/platform";

/**
 * Secret API key: `sk_test_` or `sk_live_`, then a 12-character base62 lookup id (non-secret,
 * indexed, lets us find the record without scanning hashes), then a 32-character base62 secret
 * part (~190 bits). Only a SHA-256 of the whole key is stored: a fast hash is enough because the
 * key is long and random, so there is nothing to brute-force.
 */
export const TEST_KEY_PREFIX = "sk_test_";
export const LIVE_KEY_PREFIX = "sk_live_";
export const API_KEY_LOOKUP_ID_LENGTH = 12;
export const API_KEY_SECRET_LENGTH = 32;

const API_KEY_PATTERN = /^sk_(test|live)_([0-9A-Za-z]{12})([0-9A-Za-z]{32})$/;

/** A stored API key. Never holds the key itself: `prefix` is safe to show, `hash` is one-way. */
export interface ApiKey {
  id: string;
  merchantId: string;
  livemode: boolean;
  lookupId: string;
  /** `sk_test_` or `sk_live_` + lookup id: identifies the key to humans without revealing it. */
  prefix: string;
  /** Lowercase hex SHA-256 of the full key. */
  hash: string;
  createdAt: Date;
  expiresAt?: Date;
  revokedAt?: Date;
  /**
   * Whether the key itself is kept (sealed) and can be shown again: test keys are, so the
   * dashboard shows them whenever asked; live keys never are (shown once, at creation).
   */
  retrievable: boolean;
  /** The last time the key authenticated a request, to the minute (API_KEY_USE_RECORDED_EVERY_MS). */
  lastUsedAt?: Date;
}

/** A key's last use is written at most this often: authentication never writes on every request. */
export const API_KEY_USE_RECORDED_EVERY_MS = 60_000;

/** The context a kept test key is sealed with: it opens only as this key's secret. */
export function apiKeySecretContext(keyId: string): string {
  return `api-key:${keyId}`;
}

/** A key whose shape is valid; says nothing yet about whether it exists. */
export interface WellFormedApiKey {
  livemode: boolean;
  lookupId: string;
  text: string;
}

export function parseApiKey(text: string): WellFormedApiKey | undefined {
  const match = API_KEY_PATTERN.exec(text);
  if (!match) return undefined;
  return { livemode: match[1] === "live", lookupId: match[2]!, text };
}

export function modePrefix(livemode: boolean): string {
  return livemode ? LIVE_KEY_PREFIX : TEST_KEY_PREFIX;
}

/** A fresh random key of the given mode. */
export function generateApiKey(livemode: boolean): WellFormedApiKey {
  const lookupId = randomBase62(API_KEY_LOOKUP_ID_LENGTH);
  const text = modePrefix(livemode) + lookupId + randomBase62(API_KEY_SECRET_LENGTH);
  return { livemode, lookupId, text };
}

export function hashApiKey(text: string): string {
  return sha256Hex(text);
}

/**
 * Compares two hex SHA-256 digests in constant time, so response timing says nothing about how
 * much of a guessed key was right.
 */
export function apiKeyHashesMatch(storedHex: string, presentedHex: string): boolean {
  const stored = Buffer.from(storedHex, "hex");
  const presented = Buffer.from(presentedHex, "hex");
  if (stored.length !== presented.length || stored.length === 0) return false;
  return timingSafeEqual(stored, presented);
}

export function newApiKeyRecord(input: {
  id: string;
  merchantId: string;
  key: WellFormedApiKey;
  createdAt: Date;
  expiresAt?: Date;
}): ApiKey {
  const record: ApiKey = {
    id: input.id,
    merchantId: input.merchantId,
    livemode: input.key.livemode,
    lookupId: input.key.lookupId,
    prefix: modePrefix(input.key.livemode) + input.key.lookupId,
    hash: hashApiKey(input.key.text),
    createdAt: input.createdAt,
    retrievable: false,
  };
  if (input.expiresAt) record.expiresAt = input.expiresAt;
  return record;
}

export type ApiKeyRejection =
  | "malformed"
  | "unknown"
  | "hash_mismatch"
  | "mode_mismatch"
  | "revoked"
  | "expired";

/** Why a stored key cannot be used right now, if it cannot. */
export function inactiveReason(key: ApiKey, now: Date): "revoked" | "expired" | undefined {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return undefined;
}
