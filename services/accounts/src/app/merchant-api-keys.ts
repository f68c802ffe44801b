import { GatewayError } from "@gateway/platform";
import type { ApiKey } from "../domain/api-key.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { type CreatedApiKey, createApiKey } from "./api-keys.js";
import { requireId } from "./merchants.js";

/** How long a rolled key keeps working next to its replacement: now, an hour, a day. */
export const ROLL_OVERLAPS_SECONDS = [0, 3600, 86_400] as const;

// The dashboard's view of one merchant's keys: every use case takes the merchant of the signed-in
// user, and another merchant's key is NOT_FOUND, exactly as if it did not exist.

async function merchantKey(deps: AccountsDeps, merchantId: string, keyId: string): Promise<ApiKey> {
  const id = requireId("key_id", keyId);
  const key = await deps.repos.apiKeys.findById(id);
  if (!key || key.merchantId !== merchantId) throw GatewayError.notFound("API key", id);
  return key;
}

/** The merchant's keys of one mode, newest first (bounded by MAX_LISTED_API_KEYS). */
export async function listMerchantApiKeys(
  deps: AccountsDeps,
  merchantId: string,
  livemode: boolean,
): Promise<ApiKey[]> {
  const keys = await deps.repos.apiKeys.listByMerchant(requireId("merchant_id", merchantId));
  return keys.filter((key) => key.livemode === livemode);
}

/** The test key itself, as often as asked; a live key is never shown again after creation. */
export async function revealTestKey(deps: AccountsDeps, merchantId: string, keyId: string): Promise<string> {
  const key = await merchantKey(deps, merchantId, keyId);
  if (key.livemode) {
    throw new GatewayError(
      "INVALID_STATE",
      "A live key is shown only once, when it is created; roll it to get a new one.",
    );
  }
  const secret = await deps.repos.apiKeys.openSecret(key.id);
  if (secret === undefined) {
    throw new GatewayError(
      "INVALID_STATE",
      "This test key was created before keys were kept; roll it to get one you can see.",
    );
  }
  return secret;
}

/**
 * Replaces a key: a new key of the same mode is created (and returned once), and the old one
 * stops working after `overlapSeconds` (0: at once), so a deployment can switch without
 * downtime. Rolling a revoked or expired key only creates the new one.
 */
export async function rollApiKey(
  deps: AccountsDeps,
  input: { merchantId: string; keyId: string; overlapSeconds: number },
): Promise<{ created: CreatedApiKey; previous: ApiKey }> {
  if (!(ROLL_OVERLAPS_SECONDS as readonly number[]).includes(input.overlapSeconds)) {
    throw GatewayError.validation([
      { field: "overlap_seconds", code: "invalid", message: "overlap_seconds must be 0, 3600 or 86400." },
    ]);
  }
  const old = await merchantKey(deps, input.merchantId, input.keyId);
  const created = await createApiKey(deps, { merchantId: old.merchantId, livemode: old.livemode });
  const now = deps.clock.now();
  const previous =
    input.overlapSeconds === 0
      ? await deps.repos.apiKeys.markRevoked(old.id, now)
      : await deps.repos.apiKeys.expireBy(old.id, new Date(now.getTime() + input.overlapSeconds * 1000));
  return { created, previous: previous ?? old };
}

/** Revokes one of the merchant's keys at once; revoking again keeps the first time. */
export async function revokeMerchantApiKey(
  deps: AccountsDeps,
  merchantId: string,
  keyId: string,
): Promise<ApiKey> {
  const key = await merchantKey(deps, merchantId, keyId);
  return (await deps.repos.apiKeys.markRevoked(key.id, deps.clock.now())) ?? key;
}
