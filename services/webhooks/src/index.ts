// Public surface of the webhooks service, used by the launcher (embedded and distributed) and tests.

export {
  createSecretBox,
  parseSecretsKey,
  parseSecretsKeyList,
  type SecretBox,
} from "@gateway/platform";
export { createSigningWebhookSender } from "./adapters/delivery/signing-webhook-sender.js";
export {
  DEFAULT_EVENTS_SUBJECT_PREFIX,
  DEFAULT_WEBHOOKS_DURABLE,
  webhookEventSubjects,
} from "./adapters/events/gateway-event-consumer.js";
export { type AddressPolicy, createHttpDeliverer, type HttpDeliverer } from "./adapters/http/index.js";
export { createMemoryWebhooksStores } from "./adapters/memory/create-memory-webhooks-stores.js";
export { InMemoryDeliveryRepository } from "./adapters/memory/in-memory-delivery-repository.js";
export { InMemoryWebhookEventRepository } from "./adapters/memory/in-memory-event-repository.js";
export { createMongoWebhooksStores } from "./adapters/mongo/create-mongo-webhooks-stores.js";
export type { StopOptions } from "./app/delivery-dispatcher.js";
export type {
  DeliveryRepository,
  EndpointRepository,
  WebhookEventRepository,
  WebhookSender,
  WebhooksStores,
} from "./app/ports.js";
export type { WebhooksSettings } from "./app/webhooks-settings.js";
export {
  addressPolicyFromConfig,
  type WebhookDeliveryConfig,
  type WebhooksConfig,
  webhookDeliveryConfigSpec,
  webhooksConfigSpec,
  webhooksSettingsFromConfig,
} from "./config.js";
export {
  REFUND_WEBHOOK_EVENT_TYPES,
  type RefundWebhookEventType,
  SESSION_WEBHOOK_EVENT_TYPES,
  type SessionWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "./domain/event-types.js";
export {
  createWebhooksRoutes,
  createWebhooksRuntime,
  WEBHOOKS_ERROR_DOMAIN,
  type WebhooksRoutesDeps,
  type WebhooksRuntime,
  type WebhooksRuntimeDeps,
} from "./webhooks-module.js";
