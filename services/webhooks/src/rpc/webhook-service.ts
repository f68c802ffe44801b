import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Clock, scopeFromProto } from "@gateway/platform";
import type { WebhookService } from "@gateway/proto";
import { listDeliveries } from "../app/list-deliveries.js";
import type { WebhooksStores } from "../app/ports.js";
import { bulkResendDeliveries, resendDelivery } from "../app/resend-deliveries.js";
import { rotateSecret, setEndpoint } from "../app/webhook-endpoints.js";
import { deliveryToProto } from "./delivery-to-proto.js";
import { bulkFilterFromProto, listQueryFromProto } from "./request-from-proto.js";

export interface WebhookServiceDeps {
  stores: WebhooksStores;
  clock: Clock;
  secretOverlapMs: number;
  /** Tells the dispatcher new attempts are due (resends). */
  wake?: () => void;
}

/** Connect handlers for WebhookService: proto in, use case, proto out. No rules live here. */
export function createWebhookServiceHandlers(deps: WebhookServiceDeps): ServiceImpl<typeof WebhookService> {
  const { stores, clock } = deps;
  const resendDeps = { stores, clock, ...(deps.wake ? { wake: deps.wake } : {}) };
  const endpointDeps = { endpoints: stores.endpoints, clock };
  return {
    async listDeliveries(req) {
      const page = await listDeliveries(
        stores.deliveries,
        scopeFromProto(req.scope),
        listQueryFromProto(req),
      );
      return {
        deliveries: page.deliveries.map(deliveryToProto),
        pageInfo: { hasMore: page.hasMore, nextCursor: page.nextCursor ?? "" },
      };
    },
    async resendDelivery(req) {
      const scope = req.scope ? scopeFromProto(req.scope) : undefined;
      return { delivery: deliveryToProto(await resendDelivery(resendDeps, req.deliveryId, scope)) };
    },
    async setEndpoint(req) {
      const result = await setEndpoint(endpointDeps, scopeFromProto(req.scope), req.url);
      return { url: result.url, secret: result.secret ?? "" };
    },
    async rotateSecret(req) {
      const result = await rotateSecret(endpointDeps, scopeFromProto(req.scope), deps.secretOverlapMs);
      return {
        secret: result.secret,
        ...(result.previousSecretExpiresAt
          ? { previousSecretExpiresAt: timestampFromDate(result.previousSecretExpiresAt) }
          : {}),
      };
    },
    async bulkResendDeliveries(req) {
      const outcome = await bulkResendDeliveries(
        resendDeps,
        scopeFromProto(req.scope),
        bulkFilterFromProto(req),
      );
      return { resent: outcome.resent, createdLte: timestampFromDate(outcome.createdLte) };
    },
  };
}
