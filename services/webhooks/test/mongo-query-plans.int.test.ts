import { randomBytes } from "node:crypto";
import { createSecretBox } from "@gateway/platform";
import { createQueryPlanDb } from "@gateway/testkit";
import { afterAll, describe, expect, it } from "vitest";
import {
  createMongoDeliveryRepository,
  DELIVERIES_COLLECTION,
  LEASES_COLLECTION,
} from "../src/adapters/mongo/mongo-delivery-repository.js";
import { createMongoEndpointRepository } from "../src/adapters/mongo/mongo-endpoint-repository.js";
import { createMongoWebhookEventRepository } from "../src/adapters/mongo/mongo-event-repository.js";
import { deliveryRepositoryContract } from "./contracts/delivery-repository.contract.js";
import { endpointRepositoryContract } from "./contracts/endpoint-repository.contract.js";
import { eventRepositoryContract } from "./contracts/event-repository.contract.js";

// Issue 12: every query the webhooks repositories send while their contracts run (due
// deliveries, leases, history pages and filters, events, endpoints and their versions) is
// recorded, then explained: pushed down on FerretDB, no collection scan on MongoDB, finds
// bounded (see the sessions twin).
const plans = createQueryPlanDb("webhooks_plans");
afterAll(() => plans.close());

// The work queue is global to its collection: each delivery test starts from empty collections
// (dropped, not emptied: a delete of everything would itself be a scan in the recording).
deliveryRepositoryContract("MongoDB wire server, queries recorded", async () => {
  const db = await plans.db();
  return {
    repo: await createMongoDeliveryRepository(db),
    async close() {
      for (const name of [DELIVERIES_COLLECTION, LEASES_COLLECTION])
        await db
          .collection(name)
          .drop()
          .catch(() => undefined);
    },
  };
});
eventRepositoryContract("MongoDB wire server, queries recorded", async () =>
  createMongoWebhookEventRepository(await plans.db()),
);
endpointRepositoryContract("MongoDB wire server, queries recorded", async () =>
  createMongoEndpointRepository(await plans.db(), createSecretBox(randomBytes(32))),
);

describe("query plans of the webhooks service's Mongo repositories", () => {
  it("when every recorded query pattern is explained, then none scans the collection and every find is bounded", async () => {
    // The delivery tests dropped their collections: explain on them as the service creates them.
    await createMongoDeliveryRepository(await plans.db());
    expect(plans.patterns().length).toBeGreaterThan(5);
    expect(await plans.failures()).toEqual([]);
  });
});
