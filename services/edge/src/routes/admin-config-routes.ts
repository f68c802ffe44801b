import type { Client } from "@connectrpc/connect";
import type { AccountsService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { requireJsonObjectBody } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import {
  feePlanToJson,
  readFeePlanBody,
  readTerminalBody,
  readTerminalMode,
  terminalToJson,
} from "./admin-config-json.js";

/**
 * Merchant configuration for operators (docs/api/admin.md#money-settings): acquirer terminals per
 * mode and the fee plan. Registered inside the admin scope, behind its token guard. The
 * terminal password is write-only: it goes to accounts and no answer ever carries it.
 */
export function registerAdminConfigRoutes(
  admin: FastifyInstance,
  accounts: Client<typeof AccountsService>,
): void {
  admin.put<{ Params: { id: string; mode: string } }>(
    "/merchants/:id/terminals/:mode",
    async (request, reply) => {
      const body = readTerminalBody(request.params.mode, requireJsonObjectBody(request.body).value);
      // A live terminal for an unverified merchant is refused by accounts (403 forbidden).
      const response = await accounts.setTerminal({ merchantId: request.params.id, ...body });
      return sendJson(reply, 200, terminalToJson(response.terminal));
    },
  );

  admin.get<{ Params: { id: string; mode: string } }>(
    "/merchants/:id/terminals/:mode",
    async (request, reply) => {
      const livemode = readTerminalMode(request.params.mode);
      const response = await accounts.getTerminal({ merchantId: request.params.id, livemode });
      return sendJson(reply, 200, terminalToJson(response.terminal));
    },
  );

  admin.put<{ Params: { id: string } }>("/merchants/:id/fees", async (request, reply) => {
    const { percent, fixed } = readFeePlanBody(requireJsonObjectBody(request.body).value);
    const response = await accounts.setFeePlan({ merchantId: request.params.id, percent, fixed });
    return sendJson(reply, 200, feePlanToJson(response.feePlan));
  });

  admin.get<{ Params: { id: string } }>("/merchants/:id/fees", async (request, reply) => {
    const response = await accounts.getFeePlan({ merchantId: request.params.id });
    return sendJson(reply, 200, feePlanToJson(response.feePlan));
  });
}
