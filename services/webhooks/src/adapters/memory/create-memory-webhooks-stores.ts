import type { WebhooksStores } from "../../app/ports.js";
import { InMemoryDeliveryRepository } from "./in-memory-delivery-repository.js";
import { InMemoryEndpointRepository } from "./in-memory-endpoint-repository.js";
import { InMemoryWebhookEventRepository } from "./in-memory-event-repository.js";

/** The webhooks stores in memory (embedded mode, unit tests). */
export function createMemoryWebhooksStores(): WebhooksStores {
  return {
    deliveries: new InMemoryDeliveryRepository(),
    events: new InMemoryWebhookEventRepository(),
    endpoints: new InMemoryEndpointRepository(),
  };
}
