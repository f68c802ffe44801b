import { newId } from "@gateway/platform";
import type { ApiKey } from "../../src/domain/api-key.js";
import { generateApiKey, newApiKeyRecord } from "../../src/domain/api-key.js";
import type { Merchant } from "../../src/domain/merchant.js";

export function aMerchant(overrides: Partial<Merchant> = {}): Merchant {
  return {
    id: newId("mer"),
    name: "Test Shop",
    verified: false,
    createdAt: new Date("2026-01-01T00:00:00.000Z"),
    ...overrides,
  };
}

export function anApiKey(
  overrides: Partial<ApiKey> & { merchantId?: string; livemode?: boolean } = {},
): ApiKey {
  const key = generateApiKey(overrides.livemode ?? false);
  const record = newApiKeyRecord({
    id: newId("key"),
    merchantId: overrides.merchantId ?? newId("mer"),
    key,
    createdAt: new Date("2026-01-01T00:00:00.000Z"),
  });
  return { ...record, ...overrides };
}
