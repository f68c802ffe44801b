import { GatewayError } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import {
  API_KEY_USE_RECORDED_EVERY_MS,
  type ApiKeyRejection,
  apiKeyHashesMatch,
  hashApiKey,
  inactiveReason,
  parseApiKey,
} from "../domain/api-key.js";
import type { AccountsDeps } from "./accounts-deps.js";

export interface AuthenticatedApiKey {
  scope: AccountScope;
  keyId: string;
  /** When the key stops working (absent: never), so a cache of this answer ends no later. */
  expiresAt?: Date;
}

// Compared against when no record matches, so unknown and wrong keys cost the same work.
const NO_MATCH_HASH = hashApiKey("sk_test_no-such-key");

/**
 * Every failure is the same error with the same message: a caller learns nothing about which
 * check failed. The reason travels only in `cause`, which stays in this process for logs.
 */
function rejected(why: ApiKeyRejection): GatewayError {
  return new GatewayError("UNAUTHORIZED", "Invalid API key.", {
    cause: new Error(`API key rejected: ${why}`),
  });
}

export async function authenticateApiKey(
  deps: AccountsDeps,
  presented: string,
): Promise<AuthenticatedApiKey> {
  const key = parseApiKey(presented);
  // Malformed keys never reach the database: they cannot match and would only cost a round trip.
  if (!key) throw rejected("malformed");
  const presentedHash = hashApiKey(key.text);
  const stored = await deps.repos.apiKeys.findByLookupId(key.lookupId);
  const hashMatches = apiKeyHashesMatch(stored?.hash ?? NO_MATCH_HASH, presentedHash);
  if (!stored) throw rejected("unknown");
  if (!hashMatches) throw rejected("hash_mismatch");
  if (stored.livemode !== key.livemode) throw rejected("mode_mismatch");
  const now = deps.clock.now();
  const inactive = inactiveReason(stored, now);
  if (inactive) throw rejected(inactive);
  // "Last used" to the minute: at most one write a minute per key, never one per request.
  if (!stored.lastUsedAt || now.getTime() - stored.lastUsedAt.getTime() >= API_KEY_USE_RECORDED_EVERY_MS)
    await deps.repos.apiKeys.recordUse(stored.id, now);
  return {
    scope: { merchantId: stored.merchantId, livemode: stored.livemode },
    keyId: stored.id,
    ...(stored.expiresAt ? { expiresAt: stored.expiresAt } : {}),
  };
}
