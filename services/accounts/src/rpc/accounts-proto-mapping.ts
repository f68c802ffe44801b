import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ApiKey as ApiKeyMessage,
  ApiKeySchema,
  type FeePlan as FeePlanMessage,
  FeePlanSchema,
  type Merchant as MerchantMessage,
  MerchantSchema,
  type Terminal as TerminalMessage,
  TerminalSchema,
} from "@gateway/proto";
import type { ApiKey } from "../domain/api-key.js";
import { type FeePlan, formatFixedFee } from "../domain/fee-plan.js";
import type { Merchant } from "../domain/merchant.js";
import type { Terminal } from "../domain/terminal.js";

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
    retrievable: key.retrievable,
    lastUsedAt: key.lastUsedAt ? timestampFromDate(key.lastUsedAt) : undefined,
  });
}

/** Settings only: the Terminal message has no password field, and this never looks for one. */
export function terminalToProto(terminal: Terminal): TerminalMessage {
  return create(TerminalSchema, {
    merchantId: terminal.merchantId,
    livemode: terminal.livemode,
    baseUrl: terminal.baseUrl,
    username: terminal.username,
    active: terminal.active,
    updatedAt: timestampFromDate(terminal.updatedAt),
  });
}

/** `updated_at` stays unset for the default (never set) plan. */
export function feePlanToProto(plan: FeePlan): FeePlanMessage {
  return create(FeePlanSchema, {
    merchantId: plan.merchantId,
    percent: plan.percent,
    fixed: formatFixedFee(plan),
    updatedAt: plan.updatedAt ? timestampFromDate(plan.updatedAt) : undefined,
  });
}
