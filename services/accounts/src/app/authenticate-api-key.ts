import { GatewayError } from "@gateway/platform";
import type { AccountScope } from "../domain/account-scope.js";
import {
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
  const inactive = inactiveReason(stored, deps.clock.now());
  if (inactive) throw rejected(inactive);
  return {
    scope: { merchantId: stored.merchantId, livemode: stored.livemode },
    keyId: stored.id,
    ...(stored.expiresAt ? { expiresAt: stored.expiresAt } : {}),
  };
}
