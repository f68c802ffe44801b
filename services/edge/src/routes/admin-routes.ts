import type { Client } from "@connectrpc/connect";
import type { AccountsService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { createAdminTokenGuard } from "../auth/admin-token-guard.js";
import { requireJsonObjectBody, requireNoMembers } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import {
  createdApiKeyToJson,
  merchantToJson,
  readCreateApiKeyBody,
  readCreateMerchantBody,
  readExchangeRateBody,
  revokedApiKeyToJson,
} from "../mapping/admin-json.js";
import { registerAdminConfigRoutes } from "./admin-config-routes.js";

export interface AdminRoutesDeps {
  accounts: Client<typeof AccountsService>;
  adminToken: string;
  /** Called after a key is revoked, so every edge replica stops accepting it at once. */
  onKeyRevoked(keyId: string): Promise<void>;
}

/**
 * The operator API (docs/api/admin.md), registered under /admin/v1 only when an admin
 * token is configured; without one every /admin path is an unknown route (404).
 */
export function registerAdminRoutes(admin: FastifyInstance, deps: AdminRoutesDeps): void {
  const { accounts } = deps;
  admin.addHook("onRequest", createAdminTokenGuard(deps.adminToken));

  admin.post("/merchants", async (request, reply) => {
    const { name } = readCreateMerchantBody(requireJsonObjectBody(request.body).value);
    const response = await accounts.createMerchant({ name });
    return sendJson(reply, 201, merchantToJson(response.merchant));
  });

  admin.post<{ Params: { id: string } }>("/merchants/:id/verification", async (request, reply) => {
    requireNoMembers(request.body);
    const response = await accounts.verifyMerchant({ merchantId: request.params.id });
    return sendJson(reply, 200, merchantToJson(response.merchant));
  });

  admin.post<{ Params: { id: string } }>("/merchants/:id/api-keys", async (request, reply) => {
    const { livemode, expiresAt } = readCreateApiKeyBody(requireJsonObjectBody(request.body).value);
    // A live key for an unverified merchant is refused by accounts (403 forbidden).
    const response = await accounts.createApiKey({ merchantId: request.params.id, livemode, expiresAt });
    return sendJson(reply, 201, createdApiKeyToJson(response.apiKey, response.secret));
  });

  admin.delete<{ Params: { key_id: string } }>("/api-keys/:key_id", async (request, reply) => {
    requireNoMembers(request.body);
    const response = await accounts.revokeApiKey({ keyId: request.params.key_id });
    await deps.onKeyRevoked(request.params.key_id);
    return sendJson(reply, 200, revokedApiKeyToJson(response.apiKey));
  });

  admin.put<{ Params: { id: string; currency: string } }>(
    "/merchants/:id/exchange-rates/:currency",
    async (request, reply) => {
      const { rate } = readExchangeRateBody(requireJsonObjectBody(request.body).value);
      const response = await accounts.setExchangeRate({
        merchantId: request.params.id,
        currency: request.params.currency,
        rate,
      });
      return sendJson(reply, 200, { currency: response.currency, rate: response.rate });
    },
  );

  registerAdminConfigRoutes(admin, accounts);
}
