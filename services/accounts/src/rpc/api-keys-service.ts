import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gateway/platform";
import {
  type ApiKeysService,
  ListApiKeysResponseSchema,
  RevealTestKeyResponseSchema,
  RevokeMerchantApiKeyResponseSchema,
  RollApiKeyResponseSchema,
} from "@gateway/proto";
import type { AccountsDeps } from "../app/accounts-deps.js";
import {
  listMerchantApiKeys,
  revealTestKey,
  revokeMerchantApiKey,
  rollApiKey,
} from "../app/merchant-api-keys.js";
import { requireId } from "../app/merchants.js";
import { apiKeyToProto } from "./accounts-proto-mapping.js";

/** The dashboard's keys page: one merchant's keys, their test secrets, rolls and revocations. */
export class ApiKeysRpc implements ServiceImpl<typeof ApiKeysService> {
  constructor(private readonly deps: AccountsDeps & { logger: Logger }) {}

  async listApiKeys(req: { merchantId: string; livemode: boolean }) {
    const keys = await listMerchantApiKeys(this.deps, req.merchantId, req.livemode);
    return create(ListApiKeysResponseSchema, { apiKeys: keys.map(apiKeyToProto) });
  }

  async revealTestKey(req: { merchantId: string; keyId: string }) {
    const secret = await revealTestKey(this.deps, requireId("merchant_id", req.merchantId), req.keyId);
    return create(RevealTestKeyResponseSchema, { secret });
  }

  async rollApiKey(req: { merchantId: string; keyId: string; overlapSeconds: number }) {
    const { created, previous } = await rollApiKey(this.deps, {
      merchantId: requireId("merchant_id", req.merchantId),
      keyId: req.keyId,
      overlapSeconds: req.overlapSeconds,
    });
    // Ids only: the new key's secret goes to the caller and nowhere else.
    this.deps.logger.info(
      {
        merchantId: previous.merchantId,
        keyId: created.apiKey.id,
        previousKeyId: previous.id,
        overlapSeconds: req.overlapSeconds,
      },
      "API key rolled",
    );
    return create(RollApiKeyResponseSchema, {
      apiKey: apiKeyToProto(created.apiKey),
      secret: created.secret,
      previous: apiKeyToProto(previous),
    });
  }

  async revokeMerchantApiKey(req: { merchantId: string; keyId: string }) {
    const key = await revokeMerchantApiKey(this.deps, requireId("merchant_id", req.merchantId), req.keyId);
    this.deps.logger.info({ merchantId: key.merchantId, keyId: key.id }, "API key revoked by merchant user");
    return create(RevokeMerchantApiKeyResponseSchema, { apiKey: apiKeyToProto(key) });
  }
}
