import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gateway/platform";
import {
  AccountScopeSchema,
  type AccountsService,
  type AuthenticateRequest,
  type AuthenticateResponse,
  AuthenticateResponseSchema,
  type CreateApiKeyRequest,
  type CreateApiKeyResponse,
  CreateApiKeyResponseSchema,
  type CreateMerchantRequest,
  type CreateMerchantResponse,
  CreateMerchantResponseSchema,
  type GetExchangeRateRequest,
  type GetExchangeRateResponse,
  GetExchangeRateResponseSchema,
  type GetFeePlanRequest,
  type GetFeePlanResponse,
  GetFeePlanResponseSchema,
  type GetMerchantRequest,
  type GetMerchantResponse,
  GetMerchantResponseSchema,
  type GetTerminalRequest,
  type GetTerminalResponse,
  GetTerminalResponseSchema,
  type ResolveTerminalCredentialsRequest,
  type ResolveTerminalCredentialsResponse,
  ResolveTerminalCredentialsResponseSchema,
  type RevokeApiKeyRequest,
  type RevokeApiKeyResponse,
  RevokeApiKeyResponseSchema,
  type SetExchangeRateRequest,
  type SetExchangeRateResponse,
  SetExchangeRateResponseSchema,
  type SetFeePlanRequest,
  type SetFeePlanResponse,
  SetFeePlanResponseSchema,
  type SetTerminalRequest,
  type SetTerminalResponse,
  SetTerminalResponseSchema,
  type VerifyMerchantRequest,
  type VerifyMerchantResponse,
  VerifyMerchantResponseSchema,
} from "@gateway/proto";
import type { AccountsDeps } from "../app/accounts-deps.js";
import { createApiKey, revokeApiKey } from "../app/api-keys.js";
import { authenticateApiKey } from "../app/authenticate-api-key.js";
import { getExchangeRate, setExchangeRate } from "../app/exchange-rates.js";
import { getFeePlan, setFeePlan } from "../app/fee-plans.js";
import { createMerchant, getMerchant, verifyMerchant } from "../app/merchants.js";
import { getTerminal, resolveTerminalCredentials, setTerminal } from "../app/terminals.js";
import { modeName } from "../domain/terminal.js";
import { apiKeyToProto, feePlanToProto, merchantToProto, terminalToProto } from "./accounts-proto-mapping.js";

/** AccountsService over Connect: proto in, use case, proto out. Errors are GatewayErrors. */
export class AccountsRpc implements ServiceImpl<typeof AccountsService> {
  constructor(private readonly deps: AccountsDeps & { logger: Logger }) {}

  async authenticate(req: AuthenticateRequest): Promise<AuthenticateResponse> {
    const { scope, keyId, expiresAt } = await authenticateApiKey(this.deps, req.apiKey);
    return create(AuthenticateResponseSchema, {
      scope: create(AccountScopeSchema, scope),
      keyId,
      ...(expiresAt ? { expiresAt: timestampFromDate(expiresAt) } : {}),
    });
  }

  async createMerchant(req: CreateMerchantRequest): Promise<CreateMerchantResponse> {
    const merchant = await createMerchant(this.deps, { name: req.name });
    this.deps.logger.info({ merchantId: merchant.id }, "merchant created");
    return create(CreateMerchantResponseSchema, { merchant: merchantToProto(merchant) });
  }

  async getMerchant(req: GetMerchantRequest): Promise<GetMerchantResponse> {
    const merchant = await getMerchant(this.deps, req.merchantId);
    return create(GetMerchantResponseSchema, { merchant: merchantToProto(merchant) });
  }

  async verifyMerchant(req: VerifyMerchantRequest): Promise<VerifyMerchantResponse> {
    const merchant = await verifyMerchant(this.deps, req.merchantId);
    this.deps.logger.info({ merchantId: merchant.id }, "merchant verified");
    return create(VerifyMerchantResponseSchema, { merchant: merchantToProto(merchant) });
  }

  async createApiKey(req: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    const { apiKey, secret } = await createApiKey(this.deps, {
      merchantId: req.merchantId,
      livemode: req.livemode,
      ...(req.expiresAt ? { expiresAt: timestampDate(req.expiresAt) } : {}),
    });
    // Ids and the public prefix only: the secret goes to the caller and nowhere else.
    this.deps.logger.info(
      { keyId: apiKey.id, merchantId: apiKey.merchantId, livemode: apiKey.livemode },
      "API key created",
    );
    return create(CreateApiKeyResponseSchema, { apiKey: apiKeyToProto(apiKey), secret });
  }

  async revokeApiKey(req: RevokeApiKeyRequest): Promise<RevokeApiKeyResponse> {
    const apiKey = await revokeApiKey(this.deps, req.keyId);
    this.deps.logger.info({ keyId: apiKey.id, merchantId: apiKey.merchantId }, "API key revoked");
    return create(RevokeApiKeyResponseSchema, { apiKey: apiKeyToProto(apiKey) });
  }

  async setExchangeRate(req: SetExchangeRateRequest): Promise<SetExchangeRateResponse> {
    const rate = await setExchangeRate(this.deps, {
      merchantId: req.merchantId,
      currency: req.currency,
      rate: req.rate,
    });
    this.deps.logger.info(
      { merchantId: rate.merchantId, currency: rate.currency, rate: rate.rate },
      "exchange rate set",
    );
    return create(SetExchangeRateResponseSchema, { currency: rate.currency, rate: rate.rate });
  }

  async getExchangeRate(req: GetExchangeRateRequest): Promise<GetExchangeRateResponse> {
    const rate = await getExchangeRate(this.deps, { merchantId: req.merchantId, currency: req.currency });
    return create(GetExchangeRateResponseSchema, { currency: rate.currency, rate: rate.rate });
  }

  async setTerminal(req: SetTerminalRequest): Promise<SetTerminalResponse> {
    const terminal = await setTerminal(this.deps, {
      merchantId: req.merchantId,
      livemode: req.livemode,
      baseUrl: req.baseUrl,
      username: req.username,
      password: req.password,
      active: req.active,
    });
    // Settings only: the password goes to the store sealed and nowhere else.
    this.deps.logger.info(
      {
        merchantId: terminal.merchantId,
        mode: modeName(terminal.livemode),
        baseUrl: terminal.baseUrl,
        active: terminal.active,
      },
      "terminal set",
    );
    return create(SetTerminalResponseSchema, { terminal: terminalToProto(terminal) });
  }

  async getTerminal(req: GetTerminalRequest): Promise<GetTerminalResponse> {
    const terminal = await getTerminal(this.deps, { merchantId: req.merchantId, livemode: req.livemode });
    return create(GetTerminalResponseSchema, { terminal: terminalToProto(terminal) });
  }

  async resolveTerminalCredentials(
    req: ResolveTerminalCredentialsRequest,
  ): Promise<ResolveTerminalCredentialsResponse> {
    const credentials = await resolveTerminalCredentials(this.deps, req.scope);
    return create(ResolveTerminalCredentialsResponseSchema, credentials);
  }

  async setFeePlan(req: SetFeePlanRequest): Promise<SetFeePlanResponse> {
    const plan = await setFeePlan(this.deps, {
      merchantId: req.merchantId,
      percent: req.percent,
      fixed: req.fixed,
    });
    const response = create(SetFeePlanResponseSchema, { feePlan: feePlanToProto(plan) });
    this.deps.logger.info(
      { merchantId: plan.merchantId, percent: plan.percent, fixed: response.feePlan?.fixed },
      "fee plan set",
    );
    return response;
  }

  async getFeePlan(req: GetFeePlanRequest): Promise<GetFeePlanResponse> {
    const plan = await getFeePlan(this.deps, req.merchantId);
    return create(GetFeePlanResponseSchema, { feePlan: feePlanToProto(plan) });
  }
}
