import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ApiKeySchema, MerchantSchema, type ApiKey as ApiKeyMessage, type Merchant as MerchantMessage } from "@gateway/proto";
import type { ApiKey } from "../domain/api-key.js";
import type { Merchant } from "../domain/merchant.js";

export function merchantToProto(merchant: Merchant): MerchantMessage {
  return create(MerchantSchema, {
    id: merchant.id,
    name: merchant.name,
    verified: merchant.verified,
    createdAt: timestampFromDate(merchant.createdAt),
  });
}

/** The public view of a key: never the hash, never the lookup id on its own. */
export function apiKeyToProto(key: ApiKey): ApiKeyMessage {
  return create(ApiKeySchema, {
    id: key.id,
    merchantId: key.merchantId,
    livemode: key.livemode,
    prefix: key.prefix,
    createdAt: timestampFromDate(key.createdAt),
    expiresAt: key.expiresAt ? timestampFromDate(key.expiresAt) : undefined,
    revokedAt: key.revokedAt ? timestampFromDate(key.revokedAt) : undefined,
  });
}
