import { GatewayError, newId } from "@gateway/platform";
import { type ApiKey, generateApiKey, newApiKeyRecord } from "../domain/api-key.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { getMerchant, requireId } from "./merchants.js";

export interface CreatedApiKey {
  apiKey: ApiKey;
  /** The full key: handed out here once, never stored, never logged. */
  secret: string;
}

// A lookup id has ~71 random bits; a few retries only matter if the generator is broken.
const MAX_INSERT_ATTEMPTS = 3;

export async function createApiKey(
  deps: AccountsDeps,
  input: { merchantId: string; livemode: boolean; expiresAt?: Date },
): Promise<CreatedApiKey> {
  const merchant = await getMerchant(deps, input.merchantId);
  const now = deps.clock.now();
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw GatewayError.validation([
      { field: "expires_at", code: "invalid", message: "expires_at must be in the future." },
    ]);
  }
  if (input.livemode && !merchant.verified) {
    throw new GatewayError("FORBIDDEN", "Live API keys require a verified merchant.", {
      metadata: { merchant_id: merchant.id },
    });
  }
  for (let attempt = 0; attempt < MAX_INSERT_ATTEMPTS; attempt++) {
    const key = generateApiKey(input.livemode);
    const apiKey = newApiKeyRecord({
      id: newId("key"),
      merchantId: merchant.id,
      key,
      createdAt: now,
      ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
    });
    // A test key is kept (sealed) so the dashboard shows it whenever asked; a live key never is.
    const kept = input.livemode ? undefined : key.text;
    if ((await deps.repos.apiKeys.insert(apiKey, kept)) === "inserted")
      return { apiKey: { ...apiKey, retrievable: kept !== undefined }, secret: key.text };
  }
  throw new GatewayError("INTERNAL", "Internal error.", {
    cause: new Error("API key id collisions on every attempt"),
  });
}

/** Revokes a key; revoking it again returns it unchanged (the first revocation time stays). */
export async function revokeApiKey(deps: AccountsDeps, keyId: string): Promise<ApiKey> {
  const id = requireId("key_id", keyId);
  const revoked = await deps.repos.apiKeys.markRevoked(id, deps.clock.now());
  if (!revoked) throw GatewayError.notFound("API key", id);
  return revoked;
}
