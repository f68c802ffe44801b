import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Clock, scopeFromProto } from "@gateway/platform";
import { type Endpoint, EndpointSchema, type WebhookEndpointsService } from "@gateway/proto";
import { deliveryDetail } from "../app/delivery-detail.js";
import type { WebhooksStores } from "../app/ports.js";
import { sendTestEvent } from "../app/test-events.js";
import { endpointWithSecret, rotateSecretWithOverlap, setSubscriptions } from "../app/webhook-endpoints.js";
import { subscriptionsOf } from "../domain/event-subscriptions.js";
import type { WebhookEndpoint } from "../domain/webhook-endpoint.js";
import { deliveryToProto } from "./delivery-to-proto.js";

function endpointToProto(endpoint: WebhookEndpoint, now: Date): Endpoint {
  const overlapping =
    endpoint.previousSecretExpiresAt !== undefined &&
    endpoint.previousSecretExpiresAt.getTime() > now.getTime();
  return create(EndpointSchema, {
    url: endpoint.url ?? "",
    secret: endpoint.secret,
    ...(overlapping ? { previousSecretExpiresAt: timestampFromDate(endpoint.previousSecretExpiresAt!) } : {}),
    enabledEvents: [...subscriptionsOf(endpoint.enabledEvents)],
    defaultSubscriptions: endpoint.enabledEvents === undefined,
    ...(endpoint.disabledAt ? { disabledAt: timestampFromDate(endpoint.disabledAt) } : {}),
  });
}

/** The dashboard's webhooks page: the endpoint and its secret, subscriptions, test events, delivery detail. */
export function createWebhookEndpointsHandlers(deps: {
  stores: WebhooksStores;
  clock: Clock;
  wake?: () => void;
}): ServiceImpl<typeof WebhookEndpointsService> {
  const { stores, clock } = deps;
  const endpointDeps = { endpoints: stores.endpoints, clock };
  return {
    async getEndpoint(req) {
      return {
        endpoint: endpointToProto(
          await endpointWithSecret(endpointDeps, scopeFromProto(req.scope)),
          clock.now(),
        ),
      };
    },
    async setSubscriptions(req) {
      const endpoint = await setSubscriptions(endpointDeps, scopeFromProto(req.scope), req.enabledEvents);
      return { endpoint: endpointToProto(endpoint, clock.now()) };
    },
    async rotateSecretWithOverlap(req) {
      const endpoint = await rotateSecretWithOverlap(
        endpointDeps,
        scopeFromProto(req.scope),
        req.overlapSeconds,
      );
      return { endpoint: endpointToProto(endpoint, clock.now()) };
    },
    async sendTestEvent(req) {
      const delivery = await sendTestEvent(
        { stores, clock, ...(deps.wake ? { wake: deps.wake } : {}) },
        scopeFromProto(req.scope),
      );
      return { delivery: deliveryToProto(delivery) };
    },
    async getDeliveryDetail(req) {
      const detail = await deliveryDetail(stores, scopeFromProto(req.scope), req.deliveryId);
      return {
        delivery: deliveryToProto(detail.delivery),
        requestHeaders: detail.delivery.requestHeaders ?? {},
        requestBody: detail.body,
        responseExcerpt: detail.delivery.responseExcerpt ?? "",
        attempts: detail.attempts.map(deliveryToProto),
      };
    },
  };
}
