import type { SecretBox } from "@gateway/platform";
import type { Db } from "mongodb";
import type { WebhooksStores } from "../../app/ports.js";
import { createMongoDeliveryRepository } from "./mongo-delivery-repository.js";
import { createMongoEndpointRepository } from "./mongo-endpoint-repository.js";
import { createMongoWebhookEventRepository } from "./mongo-event-repository.js";

/** The webhooks stores in `db` (gateway_webhooks), indexes in place; secrets sealed with `box`. */
export async function createMongoWebhooksStores(db: Db, box: SecretBox): Promise<WebhooksStores> {
  return {
    deliveries: await createMongoDeliveryRepository(db),
    events: await createMongoWebhookEventRepository(db),
    endpoints: await createMongoEndpointRepository(db, box),
  };
}
